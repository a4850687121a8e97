// The frame of every dashboard page: the account's name, log-out, the section navigation
// (the current one marked aria-current), the status line forms write to, and the one script.
import type { VNode } from 'preact'
import { browserScript } from '../assets.ts'
import { LogoutButton } from '../auth/logout.tsx'
import { Layout } from '../layout.tsx'
import type { Children } from '../render.tsx'
import { NAV } from './nav.ts'
import { DASHBOARD_CSS } from './style.ts'

const SCRIPT = browserScript('dashboard', new URL('./browser/main.ts', import.meta.url))

export function DashboardShell(props: {
  /** The NAV path of the section shown ('' for the overview). */
  section: string
  title: string
  accountName: string
  children: Children
}): VNode {
  return (
    <Layout title={props.title} css={DASHBOARD_CSS}>
      <div class="top">
        <p>
          <strong>Vitrine</strong> · <span>{props.accountName}</span>
        </p>
        <LogoutButton />
      </div>
      <div class="shell">
        <nav class="sections" aria-label="Seções do painel">
          <ul>
            {NAV.map((item) => (
              <li key={item.path}>
                <a
                  href={`/dashboard${item.path}`}
                  aria-current={item.path === props.section ? 'page' : undefined}
                >
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div id="conteudo">
          <h1>{props.title}</h1>
          <p id="aviso" role="status" aria-live="polite" />
          {props.children}
        </div>
      </div>
      <script src={SCRIPT} />
    </Layout>
  )
}

/** The frame for a visitor without a session (the log-in form) or without an account. */
export function OutsideShell(props: { title: string; children: Children }): VNode {
  return (
    <Layout title={props.title} css={DASHBOARD_CSS}>
      <h1>Painel da Vitrine</h1>
      <p id="aviso" role="alert" aria-live="assertive" />
      {props.children}
      <script src={SCRIPT} />
    </Layout>
  )
}
