// /members/senha: where an invited user (or a buyer) sets a password after arriving by link.
import { type AppError, Unauthorized } from '../kit/errors.ts'
import { PASSWORD_PAGE } from '../modules/accounts/password.ts'
import type { RouteModule } from '../routes.ts'
import { browserScript } from './assets.ts'
import { Layout } from './layout.tsx'
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

function PasswordPage() {
  return (
    <Layout title="Defina sua senha">
      <div class="card">
        <h1>Defina sua senha</h1>
        <form id="senha">
          <p>
            <label for="nova">Nova senha (pelo menos 8 caracteres)</label>
            <br />
            <input id="nova" type="password" autocomplete="new-password" minLength={8} required />
          </p>
          <p>
            <label for="repita">Repita a senha</label>
            <br />
            <input id="repita" type="password" autocomplete="new-password" minLength={8} required />
          </p>
          <p id="erro" role="alert" style="color:#b00020" />
          <button class="btn" type="submit">
            Salvar senha
          </button>
        </form>
        <p id="feito" hidden>
          Senha definida. Agora você também entra com seu e-mail e esta senha.{' '}
          <a href="/members">Ir para a área de membros</a>
        </p>
      </div>
      <script src={SCRIPT} />
    </Layout>
  )
}

export const passwordPages: RouteModule = (app) => {
  const config = { guard: 'session', deniedPage: expired } as const
  app.get(PASSWORD_PAGE, { schema: { hide: true }, config }, async (_request, reply) => {
    return reply.type('text/html').send(render(<PasswordPage />))
  })
}
