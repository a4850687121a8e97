// Members area: a buyer arrives by an e-mailed one-time link (or e-mail and password) and sees
// the products they can access.
import type { FastifyReply } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Db, Tx } from '../kit/db.ts'
import { withTx } from '../kit/db.ts'
import { type AppError, Unauthorized } from '../kit/errors.ts'
import { setSessionCookies } from '../kit/http/auth.ts'
import { actorOf } from '../kit/http/guard.ts'
import { activeProductsOf } from '../modules/access/service.ts'
import {
  consumeMemberLink,
  isMemberLinkToken,
  memberLinkIsLive,
} from '../modules/accounts/member-links.ts'
import { PASSWORD_PAGE } from '../modules/accounts/password.ts'
import {
  accountOwner,
  consumeLoginLink,
  createSession,
  loginLinkIsLive,
} from '../modules/accounts/service.ts'
import { listPurchases, listSubscriptions } from '../modules/buyers/service.ts'
import { findProductById } from '../modules/catalog/service.ts'
import type { RouteModule } from '../routes.ts'
import { browserScript } from './assets.ts'
import { LogoutButton } from './auth/logout.tsx'
import { Layout } from './layout.tsx'
import { CONTROLS_CSS, LoginForm, LoginLinkForm } from './login-forms.tsx'
import {
  MEMBERS_CSS,
  MyProducts,
  MyPurchases,
  MySubscriptions,
  type ProductAccess,
} from './members/sections.tsx'
import { render } from './render.tsx'

/** The log-in forms while logged out; refund requests and cancels once in. */
const SCRIPT = browserScript('members', new URL('./members/browser/main.ts', import.meta.url))

// A link's token and where to land after log-in: only our own pages (never an open redirect).
// Anything malformed ends on the "Link expirado" page, never on a JSON error.
const LinkFields = z.object({
  token: z.string().max(200).optional().catch(undefined),
  next: z.enum(['/members', PASSWORD_PAGE]).catch('/members'),
})

export const membersPages: RouteModule = (app, deps) => {
  const cookies = { secure: deps.config.baseUrl.startsWith('https://') }

  // Opening the link only shows a button: mail scanners and link previews open links (and run
  // their scripts), so nothing here spends the token and no script submits the form.
  app.get(
    '/members/login',
    { schema: { hide: true, querystring: LinkFields } },
    async (request, reply) => {
      const { token, next } = request.query
      if (!token || !(await linkIsLive(deps, token))) return expired(reply)
      // The page's URL holds the token: no cache keeps it, no referrer carries it away.
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer')
      return reply.type('text/html').send(
        render(
          <Layout title="Entrar" css={CONTROLS_CSS}>
            <form method="post" action="/members/login" class="card">
              <h1>Área de membros</h1>
              <p>Este link de acesso pode ser usado uma vez.</p>
              <input type="hidden" name="token" value={token} />
              <input type="hidden" name="next" value={next} />
              <button type="submit">Entrar na área de membros</button>
            </form>
          </Layout>,
        ),
      )
    },
  )

  // The button's POST is a plain form (urlencoded), so this route alone parses that type; the
  // API keeps answering 415 to anything but JSON.
  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    )
    scope
      .withTypeProvider<ZodTypeProvider>()
      .post(
        '/members/login',
        { schema: { hide: true, body: LinkFields } },
        async (request, reply) => {
          // Another site cannot log a visitor into the sender's account (log-in CSRF).
          if (request.headers['sec-fetch-site'] === 'cross-site') return expired(reply)
          const { token, next } = request.body
          const session =
            token &&
            (await withTx(deps.db, async (tx) => {
              const userId = await consumeLink(tx, deps, token)
              return userId ? createSession(tx, deps, userId) : null
            }))
          if (!session) return expired(reply)
          setSessionCookies(reply, session, cookies)
          return reply.redirect(next, 303)
        },
      )
  })

  const config = { guard: 'session', deniedPage: loggedOutPage } as const
  app.get('/members', { schema: { hide: true }, config }, async (request, reply) => {
    const { userId } = actorOf(request)
    const products = await productsOf(deps.db, userId)
    const purchases = await listPurchases(deps.db, deps, userId, { page: 1, limit: 50 })
    const subscriptions = await listSubscriptions(deps.db, userId)
    return reply.type('text/html').send(
      render(
        <Layout title="Área de membros" css={CONTROLS_CSS + MEMBERS_CSS}>
          <div class="topo">
            <h1>Área de membros</h1>
            <LogoutButton next="/members" />
          </div>
          <MyProducts products={products} />
          <MySubscriptions subscriptions={subscriptions} />
          <MyPurchases purchases={purchases.data} hasMore={purchases.has_more} />
          <p class="links">
            <a href={PASSWORD_PAGE}>Definir ou trocar minha senha</a>
          </p>
          <script src={SCRIPT} />
        </Layout>,
      ),
    )
  })
}

type LinkCtx = Parameters<typeof loginLinkIsLive>[1]

/** A one-time link's token: a stored log-in link, or the payment e-mail's signed member link. */
const linkIsLive = (deps: LinkCtx & { db: Db }, token: string) =>
  isMemberLinkToken(token)
    ? memberLinkIsLive(deps.db, deps, token)
    : loginLinkIsLive(deps.db, deps, token)

const consumeLink = (tx: Tx, ctx: LinkCtx, token: string) =>
  isMemberLinkToken(token) ? consumeMemberLink(tx, ctx, token) : consumeLoginLink(tx, ctx, token)

/** Products with active access, each with its way in (or who sends it, when it has none). */
async function productsOf(db: Db, userId: string): Promise<ProductAccess[]> {
  const grants = await activeProductsOf(db, userId)
  const out: ProductAccess[] = []
  for (const id of new Set(grants.map((g) => g.product_id))) {
    const product = await findProductById(db, id)
    if (!product) continue
    const owner = product.delivery_url ? undefined : await accountOwner(db, product.account_id)
    out.push({
      id: product.id,
      name: product.name,
      description: product.description,
      deliveryUrl: product.delivery_url,
      seller: owner ? { name: owner.name, email: owner.email } : null,
    })
  }
  return out
}

/** A used, expired or malformed link: say so, and offer a new one right there. */
function expired(reply: FastifyReply) {
  return reply
    .code(410)
    .type('text/html')
    .send(
      render(
        <Layout title="Link expirado" css={CONTROLS_CSS}>
          <div class="card">
            <h1>Link expirado</h1>
            <p>
              Este link de acesso já foi usado ou expirou. Peça um novo abaixo: ele chega no seu
              e-mail.
            </p>
            <p>
              Tem senha? <a href="/members">Entre com e-mail e senha</a>.
            </p>
          </div>
          <LoginLinkForm />
          <script src={SCRIPT} />
        </Layout>,
      ),
    )
}

function loggedOutPage(error: AppError) {
  return error instanceof Unauthorized ? { status: 401, html: loggedOut() } : undefined
}

function loggedOut(): string {
  return render(
    <Layout title="Área de membros" css={CONTROLS_CSS}>
      <h1>Área de membros</h1>
      <p>Entre pelo link de acesso que enviamos ao seu e-mail depois da compra, ou peça um novo.</p>
      <LoginLinkForm />
      <LoginForm next="/members" links="buyer" alert />
      <script src={SCRIPT} />
    </Layout>,
  )
}
