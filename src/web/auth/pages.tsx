// The creator's way in: /cadastro (sign-up), /entrar (log-in, `next` among our own pages) and
// /senha/esqueci (a reset link by e-mail). Each page is one form calling the public API; the
// behaviour is in auth/browser/main.ts.
import type { VNode } from 'preact'
import { z } from 'zod'
import type { RouteModule } from '../../routes.ts'
import { browserScript } from '../assets.ts'
import { Layout } from '../layout.tsx'
import { CONTROLS_CSS, LoginForm } from '../login-forms.tsx'
import { render } from '../render.tsx'
import { safeNext } from './next.ts'

const SCRIPT = browserScript('auth', new URL('./browser/main.ts', import.meta.url))

export const SIGNUP_PAGE = '/cadastro'
export const LOGIN_PAGE = '/entrar'
export const FORGOT_PAGE = '/senha/esqueci'

function AuthFrame(props: { title: string; children: VNode | VNode[] }): VNode {
  return (
    <Layout title={props.title} css={CONTROLS_CSS}>
      <p class="muted">Vitrine · venda seus produtos digitais</p>
      {props.children}
      <script src={SCRIPT} />
    </Layout>
  )
}

function SignupPage(): VNode {
  return (
    <AuthFrame title="Criar conta">
      <h1>Crie sua conta de produtor</h1>
      <form id="cadastro" class="card">
        <p>
          <label for="nome">Seu nome</label>
          <input id="nome" name="name" autocomplete="name" maxLength={120} required />
        </p>
        <p>
          <label for="email">E-mail</label>
          <input id="email" name="email" type="email" autocomplete="email" required />
        </p>
        <p>
          <label for="senha">Senha (pelo menos 8 caracteres)</label>
          <input
            id="senha"
            name="password"
            type="password"
            autocomplete="new-password"
            minLength={8}
            required
          />
        </p>
        <div class="erro" role="alert" />
        <button type="submit">Criar conta</button>
        <p class="links">
          Já tem conta? <a href={LOGIN_PAGE}>Entrar</a>
        </p>
      </form>
    </AuthFrame>
  )
}

function LoginPage(props: { next: string }): VNode {
  return (
    <AuthFrame title="Entrar">
      <h1>Entrar na Vitrine</h1>
      <LoginForm next={props.next} links="creator" alert />
      <p class="muted">
        Comprou um produto? Seu acesso fica na <a href="/members">área de membros</a>.
      </p>
    </AuthFrame>
  )
}

function ForgotPage(): VNode {
  return (
    <AuthFrame title="Esqueci minha senha">
      <h1>Esqueci minha senha</h1>
      <form id="esqueci" class="card">
        <p>Digite o e-mail da sua conta. Enviamos um link para você criar uma nova senha.</p>
        <p>
          <label for="email">E-mail</label>
          <input id="email" name="email" type="email" autocomplete="email" required />
        </p>
        <p class="erro" role="alert" />
        <button type="submit">Enviar link</button>
        <p id="esqueci-status" role="status" />
        <p class="links">
          <a href={LOGIN_PAGE}>Voltar para o login</a>
        </p>
      </form>
    </AuthFrame>
  )
}

const html = (page: VNode) => render(page)

export const authPages: RouteModule = (app) => {
  app.get(SIGNUP_PAGE, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html').send(html(<SignupPage />)),
  )

  app.get(
    LOGIN_PAGE,
    {
      schema: {
        hide: true,
        querystring: z.object({ next: z.string().max(500).optional().catch(undefined) }),
      },
    },
    async (request, reply) =>
      reply.type('text/html').send(html(<LoginPage next={safeNext(request.query.next)} />)),
  )

  app.get(FORGOT_PAGE, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html').send(html(<ForgotPage />)),
  )
}
