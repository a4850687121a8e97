// /dashboard/assinaturas: subscriptions (status, plan, next charge, buyer) with cancel through
// POST /api/v1/subscriptions/{id}/cancel, at the period's end or, if ticked, now.
import type { VNode } from 'preact'
import { z } from 'zod'
import { planNames, productNames } from '../../../modules/catalog/service.ts'
import { listSubscriptions } from '../../../modules/subscriptions/service.ts'
import type { RouteModule } from '../../../routes.ts'
import { dashboardPage } from '../page.tsx'
import { ApiForm, brl, type Data, ListOr, Section, when } from '../ui.tsx'

type Subscription = Data<typeof listSubscriptions>['data'][number]

const PAGE_SIZE = 20
const Cursor = z.uuid().optional().catch(undefined)

const STATUS: Record<string, string> = {
  active: 'ativa',
  past_due: 'pagamento atrasado',
  canceled: 'cancelada',
}

const every = (s: Subscription) => {
  const unit = s.interval === 'year' ? ['ano', 'anos'] : ['mês', 'meses']
  return s.interval_count === 1 ? `por ${unit[0]}` : `a cada ${s.interval_count} ${unit[1]}`
}

function nextCharge(s: Subscription): string {
  if (s.status === 'canceled') return `cancelada em ${when(s.canceled_at)}`
  if (s.cancel_at_period_end) return `termina em ${when(s.current_period_end)}, sem nova cobrança`
  return `próxima cobrança em ${when(s.current_period_end)}`
}

/**
 * Cancel at the period's end, or now when ticked. Once set to end, only "now" is left: the box
 * comes ticked and required.
 */
function CancelForm({ s, product }: { s: Subscription; product: string }): VNode {
  const ending = s.cancel_at_period_end
  return (
    <ApiForm
      url={`/api/v1/subscriptions/${s.id}/cancel`}
      confirm={
        ending
          ? `Encerrar agora a assinatura de ${s.buyer_email} em ${product}? O acesso é revogado na hora.`
          : `Cancelar a assinatura de ${s.buyer_email} em ${product}? Sem "Encerrar agora", o acesso dura até o fim do período pago.`
      }
      done={ending ? 'Assinatura encerrada.' : 'Assinatura cancelada.'}
    >
      <label class="check">
        <input
          type="checkbox"
          name="immediately"
          data-type="boolean"
          checked={ending}
          required={ending}
        />{' '}
        Encerrar agora e revogar o acesso
      </label>
      <button type="submit" class="danger">
        {ending
          ? `Encerrar agora a assinatura de ${s.buyer_email}`
          : `Cancelar assinatura de ${s.buyer_email}`}
      </button>
    </ApiForm>
  )
}

export const subscriptionsPage: RouteModule = (app, deps) =>
  dashboardPage(
    app,
    deps,
    { path: '/assinaturas', section: '/assinaturas' },
    async ({ accountId, query }) => {
      const startingAfter = Cursor.parse(query.starting_after || undefined)
      const [subs, productName, planName] = await Promise.all([
        listSubscriptions(deps.db, accountId, {
          page: 1,
          limit: PAGE_SIZE,
          starting_after: startingAfter,
        }),
        productNames(deps.db, accountId),
        planNames(deps.db, accountId),
      ])
      const items = subs.data.map((s) => {
        const product = productName.get(s.product_id) ?? 'produto removido'
        return (
          <li key={s.id}>
            <p>
              <strong>{product}</strong>
              {` · ${planName.get(s.plan_id) ?? 'plano'} · ${brl(s.amount)} ${every(s)}`}
            </p>
            <p>
              <span class="badge">{STATUS[s.status]}</span> {nextCharge(s)}
            </p>
            <p class="muted">{`${s.buyer_email} · desde ${when(s.created_at)}`}</p>
            {s.status !== 'canceled' ? <CancelForm s={s} product={product} /> : null}
          </li>
        )
      })
      const last = subs.data.at(-1)
      return {
        title: 'Assinaturas',
        body: (
          <Section id="t-assinaturas" title="Assinantes">
            <ListOr
              items={items}
              empty={
                startingAfter
                  ? 'Não há assinaturas mais antigas.'
                  : 'Nenhuma assinatura ainda. Crie um produto recorrente (mensal ou anual) para vender assinaturas.'
              }
            />
            <nav class="pager" aria-label="Páginas de assinaturas">
              {startingAfter ? <a href="/dashboard/assinaturas">Mais recentes</a> : null}
              {subs.has_more && last ? (
                <a href={`/dashboard/assinaturas?starting_after=${last.id}`}>Mais antigas</a>
              ) : null}
            </nav>
          </Section>
        ),
      }
    },
  )
