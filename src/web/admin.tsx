// /admin: the platform admin's back office (SPEC §12, issue 12): search accounts and orders,
// PIX keys to verify, and the withdrawal history with each open withdrawal's holder balance,
// approved, paid or refused after a confirmation. The page is the frame and the key queue; the
// script (admin/browser/main.ts) fills the lists from the admin API and updates them in place.
import type { VNode } from 'preact'
import { type AppError, Forbidden, Unauthorized } from '../kit/errors.ts'
import { listPixKeys } from '../modules/payouts/pix-keys.ts'
import type { RouteModule } from '../routes.ts'
import type { AdminConfig } from './admin/config.ts'
import { PixKeysSection } from './admin/pix-keys.tsx'
import { ConfirmDialog, SearchSection, WithdrawalsSection } from './admin/sections.tsx'
import { browserScript } from './assets.ts'
import { Layout } from './layout.tsx'
import { CONTROLS_CSS, LoginForm } from './login-forms.tsx'
import { type Children, JsonScript, render } from './render.tsx'

const QUEUE_SIZE = 100

const SCRIPT = browserScript('admin', new URL('./admin/browser/main.ts', import.meta.url))
// Error text #b00020 and muted text keep 4.5:1 on white.
const CSS = `${CONTROLS_CSS}.key{word-break:break-all}.erro{color:#b00020;font-weight:600}
.linha{display:flex;gap:6px}.linha input{flex:1}.linha button{flex:none}.busca{margin:0 0 8px}
#mensagem{color:#1d6b34;font-weight:600}#mensagem:empty,#aviso:empty{display:none}
.saldo{font-weight:600}.negativo{color:#b00020}
dialog{border:0;border-radius:12px;padding:16px;max-width:min(92vw,420px);box-shadow:0 4px 24px #0004}
dialog::backdrop{background:#0006}dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px;margin:0 0 12px}
dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}select{margin:0 0 8px}`

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

export const adminPages: RouteModule = (app, deps) => {
  const config = { guard: 'admin', deniedPage: refusal } as const
  app.get('/admin', { schema: { hide: true }, config }, async (_request, reply) => {
    const keys = await listPixKeys(deps.db, { status: 'pending', page: 1, limit: QUEUE_SIZE })
    const script: AdminConfig = { automatic: deps.payouts.automatic }
    const page = (
      <Frame>
        <p id="mensagem" role="status" tabindex={-1} />
        <SearchSection />
        <PixKeysSection keys={keys.data} />
        <WithdrawalsSection />
        <ConfirmDialog />
        <JsonScript id="admin-config" value={script} />
      </Frame>
    )
    return reply.type('text/html').send(render(page))
  })
}
