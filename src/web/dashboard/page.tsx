// How a dashboard section becomes a page: `dashboardPage(app, deps, { path, section }, load)`
// registers GET /dashboard<path> behind the creator's session (or, as every page, refuses with
// the log-in form), hands `load` the account it acts in, and frames what `load` returns.
import type { FastifyRequest } from 'fastify'
import type { VNode } from 'preact'
import type { Deps } from '../../deps.ts'
import { type AppError, NotFound, Unauthorized } from '../../kit/errors.ts'
import { accountActorOf } from '../../kit/http/guard.ts'
import { describeUser } from '../../modules/accounts/service.ts'
import type { AppInstance } from '../../routes.ts'
import { LoginForm } from '../login-forms.tsx'
import { render } from '../render.tsx'
import { DashboardShell, OutsideShell } from './shell.tsx'

export interface DashboardCtx {
  accountId: string
  userId: string
  accountName: string
  /** The path's parameters (`/produtos/:id` → `params.id`) and the query string, unparsed. */
  params: Record<string, string>
  query: Record<string, string | undefined>
  request: FastifyRequest
}

export interface DashboardView {
  title: string
  body: VNode
  /** 404 for a sub-page whose id is unknown or another account's (default 200). */
  status?: number
}

function refusal(error: AppError) {
  if (error instanceof Unauthorized) {
    const login = (
      <OutsideShell title="Entrar">
        <LoginForm />
      </OutsideShell>
    )
    return { status: 401, html: render(login) }
  }
  // Logged in but without an account of their own (a buyer, an affiliate).
  if (error instanceof NotFound) {
    const none = (
      <OutsideShell title="Painel">
        <div class="card">
          <p>
            Este login não tem uma conta de produtor. Compras ficam na{' '}
            <a href="/members">área de membros</a>.
          </p>
        </div>
      </OutsideShell>
    )
    return { status: 403, html: render(none) }
  }
  return undefined
}

/** Registers one dashboard page. `section` is its NAV path (what the navigation marks). */
export function dashboardPage(
  app: AppInstance,
  deps: Deps,
  options: { path: string; section: string },
  load: (ctx: DashboardCtx) => Promise<DashboardView>,
): void {
  const config = { guard: { account: 'read:orders' }, deniedPage: refusal } as const
  app.get(
    `/dashboard${options.path}`,
    { schema: { hide: true }, config },
    async (request, reply) => {
      const { accountId, userId } = accountActorOf(request)
      const me = await describeUser(deps.db, userId)
      const accountName = me.accounts.find((a) => a.id === accountId)?.name ?? ''
      const params = request.params as Record<string, string>
      const query = request.query as Record<string, string | undefined>
      const view = await load({ accountId, userId, accountName, params, query, request })
      const page = (
        <DashboardShell section={options.section} title={view.title} accountName={accountName}>
          {view.body}
        </DashboardShell>
      )
      return reply
        .code(view.status ?? 200)
        .type('text/html')
        .send(render(page))
    },
  )
}
