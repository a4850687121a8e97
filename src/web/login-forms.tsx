// The log-in forms pages share: e-mail and password (/entrar, members, /admin, /dashboard), and
// the members area's way in without a password, a fresh one-time link by e-mail. Their behaviour
// is in browser/session.ts and browser/login-link.ts.
import type { VNode } from 'preact'

/** Lists, buttons, fields and the alert lines, mobile-first. */
export const CONTROLS_CSS = `
ul{list-style:none;margin:0;padding:0}li{padding:10px 0;border-bottom:1px solid #eee;
overflow-wrap:anywhere}li p{margin:0 0 6px}.actions{display:flex;flex-wrap:wrap;gap:6px;align-items:end}
button{font:inherit;padding:8px 12px;border-radius:8px;border:1px solid #5b2bd6;background:#5b2bd6;
color:#fff;cursor:pointer}button.sec{background:#fff;color:#5b2bd6}button:focus-visible,
input:focus-visible,select:focus-visible,textarea:focus-visible{outline:3px solid #1d1d1f;outline-offset:2px}
input,select,textarea{font:inherit;padding:7px;border:1px solid #888;border-radius:8px;width:100%}
button:disabled{opacity:.7;cursor:progress}
.actions span{flex:1 1 180px}label{font-size:.9rem}#aviso,.erro{color:#b00020;font-weight:600}
.erro:empty{display:none}.links{margin:12px 0 0;font-size:.95rem}.links a{display:inline-block;margin:0 12px 4px 0}`

/**
 * E-mail and password; POST /api/auth/login, then `next` (or this page again). `links`: the
 * creator's form offers sign-up and the password reset, the buyer's only the reset. `alert`:
 * the form carries its own error line (pages without a page-wide #aviso).
 */
export function LoginForm(
  props: { next?: string; links?: 'creator' | 'buyer' | 'none'; alert?: boolean } = {},
): VNode {
  const links = props.links ?? 'creator'
  return (
    <form id="entrar" class="card" data-next={props.next}>
      <h2>Entrar</h2>
      <p>
        <label for="email">E-mail</label>
        <input id="email" name="email" type="email" autocomplete="username" required />
      </p>
      <p>
        <label for="senha">Senha</label>
        <input id="senha" name="senha" type="password" autocomplete="current-password" required />
      </p>
      {props.alert ? <p class="erro" role="alert" /> : null}
      <button type="submit">Entrar</button>
      {links === 'none' ? null : (
        <p class="links">
          <a href="/senha/esqueci">Esqueci minha senha</a>
          {links === 'creator' ? <a href="/cadastro">Criar conta de produtor</a> : null}
        </p>
      )}
    </form>
  )
}

/**
 * Asks for a new one-time log-in link (POST /api/auth/login-link). The answer is the same
 * whether or not the e-mail has an account, so the page says "if".
 */
export function LoginLinkForm(): VNode {
  return (
    <form id="link" class="card">
      <h2>Receber link de acesso</h2>
      <p>Digite o e-mail que você usou na compra e enviamos um link para você entrar.</p>
      <p>
        <label for="link-email">E-mail</label>
        <input id="link-email" name="email" type="email" autocomplete="email" required />
      </p>
      <p class="erro" role="alert" />
      <button type="submit">Receber link de acesso</button>
      <p id="link-status" role="status" />
    </form>
  )
}
