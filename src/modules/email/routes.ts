// The dev mailbox: without SMTP_URL every e-mail stays in the database and is read here. Never
// in production: the mails hold log-in links, and this page has no log-in.
import { z } from 'zod'
import type { RouteModule } from '../../routes.ts'
import { html, page } from '../../web/html.ts'
import { listEmails } from './service.ts'

const MailOut = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  status: z.string(),
  created_at: z.string(),
})
const Query = z.object({
  to: z.string().max(254).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
})

const STATUS_PT: Record<string, string> = { pending: 'na fila', sent: 'enviado', failed: 'falhou' }

export const emailRoutes: RouteModule = (app, deps) => {
  if (deps.config.smtpUrl || deps.config.production) return

  app.get(
    '/api/dev/emails',
    {
      config: { guard: 'public' },
      schema: {
        tags: ['dev'],
        operationId: 'listDevEmails',
        summary: 'Read the dev mailbox',
        description: 'Development only (no SMTP_URL): the e-mails the service sent, newest first.',
        querystring: Query,
        response: { 200: z.object({ data: z.array(MailOut) }) },
      },
    },
    async (request) => {
      const rows = await listEmails(deps.db, request.query)
      return {
        data: rows.map((m) => ({
          id: m.id,
          to: m.to_address,
          subject: m.subject,
          text: m.text_body,
          html: m.html_body,
          status: m.status,
          created_at: m.created_at.toISOString(),
        })),
      }
    },
  )

  app.get(
    '/dev/mailbox',
    { schema: { hide: true, querystring: Query } },
    async (request, reply) => {
      const rows = await listEmails(deps.db, request.query)
      const items = rows.map(
        (m) => html`<details class="card"><summary><strong>${m.subject}</strong><br>
        <span class="muted">para ${m.to_address} · ${m.created_at.toLocaleString('pt-BR', { timeZone: 'America/Sao_Paulo' })} · ${STATUS_PT[m.status] ?? m.status}</span></summary>
        <iframe title="${m.subject}" sandbox="" srcdoc="${m.html_body}" style="width:100%;height:420px;border:0"></iframe>
        <pre style="white-space:pre-wrap">${m.text_body}</pre></details>`,
      )
      const body = html`<h1>Caixa de e-mails (desenvolvimento)</h1>
      <form class="card"><label>Filtrar por destinatário <input name="to" type="email" value="${request.query.to ?? ''}"></label>
      <button>Filtrar</button></form>
      ${items.length ? items : html`<p>Nenhum e-mail ainda.</p>`}`
      return reply.type('text/html').send(page('Caixa de e-mails', body))
    },
  )
}
