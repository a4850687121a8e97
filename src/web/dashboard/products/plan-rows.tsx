// The plan rows of the product form: name, price and, for subscriptions, how often it bills.
// browser/plan-rows.ts adds and removes rows and renumbers their names (plans.N.*) and labels
// (templates in data-label, "{n}" = the row's number), so the API's error paths name a row.
import type { VNode } from 'preact'
import type { ProductOut } from '../../../modules/catalog/schema.ts'
import { priceInput } from './labels.ts'

type PlanOut = ProductOut['plans'][number]

function Label(props: { for: string; template: string; n: number }): VNode {
  return (
    <label for={props.for} data-label={props.template}>
      {props.template.replace('{n}', String(props.n))}
    </label>
  )
}

export function PlanRow(props: {
  index: number
  plan?: PlanOut
  recurring: boolean
  /** The only row: it cannot be removed (a product has at least one plan). */
  only: boolean
}): VNode {
  const { index: i, plan, recurring } = props
  const n = i + 1
  const id = (field: string) => `plano-${i}-${field}`
  return (
    <li data-plan-row>
      {plan ? <input type="hidden" name={`plans.${i}.id`} value={plan.id} /> : null}
      <p>
        <Label for={id('nome')} template="Nome do plano {n}" n={n} />
        <input
          id={id('nome')}
          name={`plans.${i}.name`}
          value={plan?.name}
          maxLength={120}
          required
          placeholder="Ex.: Acesso completo"
        />
      </p>
      <p>
        <Label for={id('preco')} template="Preço do plano {n} (R$)" n={n} />
        <input
          id={id('preco')}
          name={`plans.${i}.price`}
          value={plan ? priceInput(plan.price) : undefined}
          inputMode="decimal"
          data-type="number"
          required
          placeholder="Ex.: 97,00"
        />
      </p>
      <p data-recurring hidden={!recurring}>
        <Label for={id('intervalo')} template="Cobrança do plano {n}" n={n} />
        <select id={id('intervalo')} name={`plans.${i}.interval`} disabled={!recurring}>
          <option value="month" selected={plan?.interval !== 'year'}>
            Mensal
          </option>
          <option value="year" selected={plan?.interval === 'year'}>
            Anual
          </option>
        </select>
      </p>
      <p data-recurring hidden={!recurring}>
        <Label
          for={id('a-cada')}
          template="Cobrar a cada quantos meses ou anos (plano {n})"
          n={n}
        />
        <input
          id={id('a-cada')}
          name={`plans.${i}.interval_count`}
          type="number"
          min={1}
          max={12}
          value={plan?.interval_count ?? 1}
          disabled={!recurring}
        />
      </p>
      <button
        type="button"
        class="sec"
        data-remove-plan
        data-label="Remover plano {n}"
        disabled={props.only}
      >
        {`Remover plano ${n}`}
      </button>
    </li>
  )
}

export function PlanRows(props: { plans: PlanOut[]; recurring: boolean }): VNode {
  const rows = props.plans.length ? props.plans : [undefined]
  return (
    <fieldset data-plans>
      <legend>Planos (pelo menos um)</legend>
      <ol class="plans">
        {rows.map((plan, i) => (
          <PlanRow
            key={plan?.id ?? 'novo'}
            index={i}
            plan={plan}
            recurring={props.recurring}
            only={rows.length === 1}
          />
        ))}
      </ol>
      <p class="muted">
        Um plano removido deixa de ser vendido; quem já comprou continua com o que comprou.
      </p>
      <button type="button" class="sec" data-add-plan>
        Adicionar plano
      </button>
    </fieldset>
  )
}
