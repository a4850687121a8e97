// "Sair": a small form any logged-in page can include (the dashboard shell, the members area).
// It brings its own script (auth/logout/browser/main.ts), so including the component is enough.
import type { VNode } from 'preact'
import { browserScript } from '../assets.ts'

const SCRIPT = browserScript('logout', new URL('./logout/browser/main.ts', import.meta.url))

/** POST /api/auth/logout with the CSRF header, then goes to `next` (default: the log-in page). */
export function LogoutButton(props: { next?: string } = {}): VNode {
  return (
    <>
      <form class="sair" data-logout data-next={props.next ?? '/entrar'}>
        <button type="submit" class="sec">
          Sair
        </button>
      </form>
      <script src={SCRIPT} />
    </>
  )
}
