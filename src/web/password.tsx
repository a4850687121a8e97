// The set-password form, in its two uses:
// - /members/senha (session): an invited user or a buyer who arrived by link sets a password; a
//   user who has one changes it and confirms the current one.
// - /senha/redefinir?token=… ("Esqueci minha senha"): opening the e-mailed link only shows the
//   form; its POST spends the token (SPEC §12), sets the password and logs the person in.
import type { FastifyReply } from 'fastify'
import type { VNode } from 'preact'
import { z } from 'zod'
import { type AppError, Unauthorized } from '../kit/errors.ts'
import { actorOf } from '../kit/http/guard.ts'
import { PASSWORD_PAGE } from '../modules/accounts/password.ts'
import { RESET_PAGE } from '../modules/accounts/password-reset.ts'
import { hasPassword, loginLinkIsLive } from '../modules/accounts/service.ts'
import type { RouteModule } from '../routes.ts'
import { browserScript } from './assets.ts'
import { FORGOT_PAGE } from './auth/pages.tsx'
import { Layout } from './layout.tsx'
import { CONTROLS_CSS } from './login-forms.tsx'
import { render } from './render.tsx'

const SCRIPT = browserScript('password', new URL('./password/browser/main.ts', import.meta.url))

/** Without a session, the link that brought the user here is spent or expired. */
function expired(error: AppError) {
  if (!(error instanceof Unauthorized)) return undefined
  const html = render(
    <Layout title="Defina sua senha">
      <div class="card">
        <h1>Link expirado</h1>
        <p>Entre pelo link mais recente que enviamos ao seu e-mail.</p>
      </div>
    </Layout>,
  )
  return { status: 401, html }
}

function resetExpired(reply: FastifyReply) {
  return reply
    .code(410)
    .type('text/html')
    .send(
      render(
        <Layout title="Link expirado">
          <div class="card">
            <h1>Link expirado</h1>
            <p>Este link de redefinição de senha já foi usado ou expirou.</p>
            <p>
              <a href={FORGOT_PAGE}>Pedir um novo link</a>
            </p>
          </div>
        </Layout>,
      ),
    )
}

function PasswordPage(props: { mode: 'set' | 'change' | 'reset'; token?: string }): VNode {
  const title = props.mode === 'reset' ? 'Crie uma nova senha' : 'Defina sua senha'
  return (
    <Layout title={title} css={CONTROLS_CSS}>
      <div class="card">
        <h1>{title}</h1>
        <form id="senha" data-mode={props.mode}>
          {props.token ? <input type="hidden" name="token" value={props.token} /> : null}
          {props.mode === 'change' ? (
            <p>
              <label for="atual">Senha atual</label>
              <input
                id="atual"
                name="atual"
                type="password"
                autocomplete="current-password"
                required
              />
            </p>
          ) : null}
          <p>
            <label for="nova">Nova senha (pelo menos 8 caracteres)</label>
            <input id="nova" type="password" autocomplete="new-password" minLength={8} required />
          </p>
          <p>
            <label for="repita">Repita a senha</label>
            <input id="repita" type="password" autocomplete="new-password" minLength={8} required />
          </p>
          <p id="erro" class="erro" role="alert" />
          <button type="submit">Salvar senha</button>
        </form>
        <div id="feito" hidden>
          <p>
            {props.mode === 'reset'
              ? 'Senha redefinida. Você já está conectado e entra com seu e-mail e esta senha daqui em diante.'
              : 'Senha definida. Agora você também entra com seu e-mail e esta senha.'}
          </p>
          <p class="links">
            <a href="/members">Ir para a área de membros</a>
            {props.mode === 'reset' ? <a href="/dashboard">Ir para o painel do produtor</a> : null}
          </p>
        </div>
      </div>
      <script src={SCRIPT} />
    </Layout>
  )
}

const ResetQuery = z.object({ token: z.string().max(200).optional().catch(undefined) })

export const passwordPages: RouteModule = (app, deps) => {
  const config = { guard: 'session', deniedPage: expired } as const
  app.get(PASSWORD_PAGE, { schema: { hide: true }, config }, async (request, reply) => {
    const mode = (await hasPassword(deps.db, actorOf(request).userId)) ? 'change' : 'set'
    return reply.type('text/html').send(render(<PasswordPage mode={mode} />))
  })

  // Only checks the token: the form's POST spends it (mail scanners open links).
  app.get(
    RESET_PAGE,
    { schema: { hide: true, querystring: ResetQuery } },
    async (request, reply) => {
      const { token } = request.query
      if (!token || !(await loginLinkIsLive(deps.db, deps, token))) return resetExpired(reply)
      // The URL holds the token: no cache keeps it, no referrer carries it away.
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer')
      return reply.type('text/html').send(render(<PasswordPage mode="reset" token={token} />))
    },
  )
}
