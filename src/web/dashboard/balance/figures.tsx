// The creator's six balance figures (SPEC §8, the seed's formula), each with what it means,
// and the withdrawal form; every check and message is the API's (POST /api/withdrawals).
import { Fragment, type VNode } from 'preact'
import { MAX_AMOUNT_CENTS, toBrl } from '../../../kit/money.ts'
import type { creatorBalance } from '../../../modules/ledger/balances.ts'
import { ApiForm, brl, type Data } from '../ui.tsx'

export interface Figure {
  label: string
  amount: string
  explain: string
}

/** Label, amount, and a sentence on what the amount is. */
export function Figures({ rows }: { rows: Figure[] }): VNode {
  return (
    <dl>
      {rows.map((row) => (
        <Fragment key={row.label}>
          <dt>{row.label}</dt>
          <dd>{row.amount}</dd>
          <dd class="muted explain">{row.explain}</dd>
        </Fragment>
      ))}
    </dl>
  )
}

export function creatorFigures(b: Data<typeof creatorBalance>): Figure[] {
  return [
    {
      label: 'Disponível para saque',
      amount: brl(b.available),
      explain: 'Vendas pagas menos reembolsos, saques e as partes de coprodutores e afiliados.',
    },
    {
      label: 'Vendas pagas',
      amount: brl(b.paid_total),
      explain: 'Soma dos pedidos que já foram pagos.',
    },
    {
      label: 'Reembolsado',
      amount: brl(b.refunded_total),
      explain: 'Reembolsos pedidos ou concluídos e contestações (chargebacks).',
    },
    {
      label: 'Já sacado',
      amount: brl(b.withdrawn_total),
      explain:
        'Saques pendentes, aprovados ou pagos tirados desta conta, incluindo os de coprodutores e afiliados sobre as suas vendas.',
    },
    {
      label: 'Devido a coprodutores',
      amount: brl(b.coproducer_owed),
      explain:
        'A parte dos coprodutores nas suas vendas que eles ainda não sacaram. Não pode ser sacada por você.',
    },
    {
      label: 'Devido a afiliados',
      amount: brl(b.affiliate_owed),
      explain:
        'Comissões de afiliados sobre as suas vendas ainda não sacadas. Não podem ser sacadas por você.',
    },
  ]
}

/**
 * A withdrawal form. The confirmation names the amount as it is typed (browser/money-helpers.ts)
 * and the PIX key it goes to; refusals (minimum, key, pending withdrawal, balance) show inside.
 */
export function WithdrawForm(props: {
  url: string
  id: string
  pixKey: string | null
  tenantId?: string
}): VNode {
  const to = props.pixKey ? `para a chave Pix ${props.pixKey}` : 'para a sua chave Pix'
  return (
    <ApiForm
      url={props.url}
      class="actions"
      confirm={`Confirmar o pedido de saque ${to}?`}
      done="Saque solicitado. Acompanhe o andamento em Saques."
    >
      {props.tenantId ? <input type="hidden" name="tenant_id" value={props.tenantId} /> : null}
      <span>
        <label for={props.id}>Valor do saque (R$)</label>
        <input
          id={props.id}
          name="amount"
          type="number"
          min="20"
          max={toBrl(MAX_AMOUNT_CENTS)}
          step="0.01"
          inputMode="decimal"
          required
          aria-describedby={`${props.id}-dica`}
          data-confirm-template={`Sacar {valor} ${to}?`}
        />
      </span>
      <button type="submit">Solicitar saque</button>
      <p id={`${props.id}-dica`} class="muted">
        Mínimo de R$ 20,00 e um saque pendente por vez. O valor vai para a sua chave Pix depois que
        a equipe da Vitrine aprovar o pedido.
      </p>
    </ApiForm>
  )
}
