// Members area: a buyer arrives by the e-mailed one-time link and sees the products they can access.
import { z } from 'zod'
import { withTx } from '../kit/db.ts'
import { type AppError, Unauthorized } from '../kit/errors.ts'
import { setSessionCookies } from '../kit/http/auth.ts'
import { actorOf } from '../kit/http/guard.ts'
import { activeProductsOf } from '../modules/access/service.ts'
import { consumeLoginLink, createSession } from '../modules/accounts/service.ts'
import { findProductById } from '../modules/catalog/service.ts'
import type { RouteModule } from '../routes.ts'
import { html, page } from './html.ts'

export const membersPages: RouteModule = (app, deps) => {
  const cookies = { secure: deps.config.baseUrl.startsWith('https://') }

  app.get(
    '/members/login',
    {
      schema: {
        hide: true,
        querystring: z.object({
          token: z.string().min(10).max(200),
          // Where to land after log-in: only our own pages (never an open redirect).
          next: z.enum(['/members', '/members/senha']).default('/members'),
        }),
      },
    },
    async (request, reply) => {
      const session = await withTx(deps.db, async (tx) => {
        const userId = await consumeLoginLink(tx, deps, request.query.token)
        return userId ? createSession(tx, deps, userId) : null
      })
      if (!session) {
        const body = html`<div class="card"><h1>Link expirado</h1>
          <p>Este link de acesso já foi usado ou expirou. Peça um novo ao produtor ou use o link do e-mail mais recente.</p></div>`
        return reply.code(410).type('text/html').send(page('Link expirado', body))
      }
      setSessionCookies(reply, session, cookies)
      return reply.redirect(request.query.next, 303)
    },
  )

  const config = { guard: 'session', deniedPage: loggedOutPage } as const
  app.get('/members', { schema: { hide: true }, config }, async (request, reply) => {
    const { userId } = actorOf(request)
    const grants = await activeProductsOf(deps.db, userId)
    const products = await Promise.all(grants.map((g) => findProductById(deps.db, g.product_id)))
    const cards = products.map(
      (p) => html`<div class="card"><strong>${p?.name}</strong>
        <p class="muted">${p?.description ?? ''}</p>
        ${p?.delivery_url ? html`<a class="btn" href="${p.delivery_url}">Acessar conteúdo</a>` : ''}</div>`,
    )
    const body = html`<h1>Meus produtos</h1>${cards.length ? cards : html`<p>Você ainda não tem produtos liberados.</p>`}`
    return reply.type('text/html').send(page('Meus produtos', body))
  })
}

function loggedOutPage(error: AppError) {
  return error instanceof Unauthorized ? { status: 401, html: loggedOut() } : undefined
}

function loggedOut(): string {
  return page(
    'Área de membros',
    html`<div class="card"><h1>Área de membros</h1>
      <p>Entre pelo link de acesso que enviamos ao seu e-mail depois da compra.</p></div>`,
  )
}
