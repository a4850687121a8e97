// /admin: the platform admin's back office (SPEC §12): PIX keys to verify and withdrawals to
// approve, reject or pay. Server-rendered; each button calls the admin API, then removes its row
// or, when the row moves to its next step, reloads (admin/browser/main.ts).
import type { VNode } from 'preact'
import { type AppError, Forbidden, Unauthorized } from '../kit/errors.ts'
import { formatBrl } from '../kit/money.ts'
import { maskPixKey } from '../modules/payouts/pix-key.ts'
import { listPixKeys } from '../modules/payouts/pix-keys.ts'
import { openWithdrawals } from '../modules/payouts/withdrawals.ts'
import type { RouteModule } from '../routes.ts'
import { browserScript } from './assets.ts'
import { Layout } from './layout.tsx'
import { CONTROLS_CSS, LoginForm } from './login-forms.tsx'
import { type Children, render } from './render.tsx'

const QUEUE_SIZE = 100
const ROLE = { creator: 'produtor', coproducer: 'coprodutor', affiliate: 'afiliado' }
const STATUS: Record<string, string> = { pending: 'pendente', approved: 'aprovado' }

const NO_KEYS = 'Nenhuma chave aguardando verificação.'
const NO_WITHDRAWALS = 'Nenhum saque pendente ou aprovado.'

const SCRIPT = browserScript('admin', new URL('./admin/browser/main.ts', import.meta.url))
const CSS = `${CONTROLS_CSS}.key{word-break:break-all}`

type PixKeyRow = Awaited<ReturnType<typeof listPixKeys>>['data'][number]
type WithdrawalRow = Awaited<ReturnType<typeof openWithdrawals>>[number]

function Frame(props: { children: Children }): VNode {
  return (
    <Layout title="Administração" css={CSS}>
      <h1>Administração da Vitrine</h1>
      <p id="aviso" role="alert" aria-live="assertive" />
      {props.children}
      <script src={SCRIPT} />
    </Layout>
  )
}

/** Anyone without an admin session sees the log-in form; a logged-in non-admin, a refusal. */
function refusal(error: AppError) {
  if (error instanceof Unauthorized)
    return {
      status: 401,
      html: render(
        <Frame>
          <LoginForm />
        </Frame>,
      ),
    }
  if (error instanceof Forbidden) {
    const denied = (
      <Frame>
        <div class="card">
          <p>Esta área é só da administração da plataforma.</p>
        </div>
      </Frame>
    )
    return { status: 403, html: render(denied) }
  }
  return undefined
}

/** A text field an action sends with it (a reason, an end-to-end id). */
function ReasonField(props: { id: string; name: string; label: string; maxLength: number }) {
  return (
    <span>
      <label for={props.id}>{props.label}</label>
      <input id={props.id} name={props.name} maxLength={props.maxLength} />
    </span>
  )
}

function PixKeyItem({ k }: { k: PixKeyRow }): VNode {
  const reason = `motivo-${k.user_id}`
  return (
    <li>
      <p>
        {k.name} <span class="muted">{k.email}</span>
      </p>
      <p>
        {k.pix_key_type}: <strong class="key">{k.pix_key}</strong>
      </p>
      <div class="actions">
        <button
          type="button"
          data-url={`/api/admin/pix-keys/${k.user_id}/verify`}
          data-then="remove"
        >
          Verificar
        </button>
        <ReasonField id={reason} name="reason" label="Motivo da rejeição" maxLength={500} />
        <button
          type="button"
          class="sec"
          data-url={`/api/admin/pix-keys/${k.user_id}/reject`}
          data-reason={reason}
          data-then="remove"
        >
          Rejeitar
        </button>
      </div>
    </li>
  )
}

function WithdrawalItem(props: { w: WithdrawalRow; automatic: boolean }): VNode {
  const { w, automatic } = props
  const base = `/api/admin/withdrawals/${w.id}`
  const inProgress = w.status === 'approved' && w.transfer_started_at !== null
  // PAYOUT_PROVIDER=manual: the admin sends the PIX by hand, then records its end-to-end id.
  const step =
    w.status === 'pending' ? (
      <button type="button" data-url={`${base}/approve`}>
        Aprovar
      </button>
    ) : automatic ? (
      <button type="button" data-url={`${base}/pay`}>
        {inProgress ? 'Consultar transferência' : 'Pagar via Pix'}
      </button>
    ) : (
      <>
        <span>
          <label for={`e2e-${w.id}`}>End-to-end id do Pix enviado</label>
          <input
            id={`e2e-${w.id}`}
            name="end_to_end_id"
            maxLength={32}
            autocomplete="off"
            spellcheck={false}
          />
        </span>
        <button
          type="button"
          data-url={`${base}/pay`}
          data-reason={`e2e-${w.id}`}
          data-missing="Informe o end-to-end id do Pix enviado."
        >
          Marcar como pago
        </button>
      </>
    )
  // Manual payouts show the key in full: the admin types it into the bank's app.
  const key = automatic ? maskPixKey(w.pix_key_type, w.pix_key) : w.pix_key
  const status = inProgress ? 'transferência Pix em andamento' : STATUS[w.status]
  return (
    <li>
      <p>
        {w.name} <span class="muted">{`${w.email} · ${ROLE[w.role]}`}</span>
      </p>
      <p>
        <strong>{formatBrl(w.amount_cents)}</strong> · {status} ·{' '}
        <span class="muted">
          Pix {w.pix_key_type}: <span class="key">{key}</span>
        </span>
      </p>
      <div class="actions">
        {step}
        <ReasonField
          id={`nota-${w.id}`}
          name="admin_note"
          label="Motivo da recusa"
          maxLength={500}
        />
        <button
          type="button"
          class="sec"
          data-url={`${base}/reject`}
          data-reason={`nota-${w.id}`}
          data-then="remove"
        >
          Recusar
        </button>
      </div>
    </li>
  )
}

export const adminPages: RouteModule = (app, deps) => {
  const config = { guard: 'admin', deniedPage: refusal } as const
  app.get('/admin', { schema: { hide: true }, config }, async (_request, reply) => {
    const keys = await listPixKeys(deps.db, { status: 'pending', page: 1, limit: QUEUE_SIZE })
    const withdrawals = await openWithdrawals(deps.db, QUEUE_SIZE)
    const page = (
      <Frame>
        <section class="card" aria-labelledby="t-chaves">
          <h2 id="t-chaves">Chaves Pix para verificar</h2>
          {keys.data.length ? (
            <ul data-empty={NO_KEYS}>
              {keys.data.map((k) => (
                <PixKeyItem key={k.user_id} k={k} />
              ))}
            </ul>
          ) : (
            <p>{NO_KEYS}</p>
          )}
        </section>
        <section class="card" aria-labelledby="t-saques">
          <h2 id="t-saques">Saques em aberto</h2>
          {withdrawals.length ? (
            <ul data-empty={NO_WITHDRAWALS}>
              {withdrawals.map((w) => (
                <WithdrawalItem key={w.id} w={w} automatic={deps.payouts.automatic} />
              ))}
            </ul>
          ) : (
            <p>{NO_WITHDRAWALS}</p>
          )}
        </section>
      </Frame>
    )
    return reply.type('text/html').send(render(page))
  })
}
