// The e-mail of an access a creator granted by hand: there was no purchase, so neither the
// checkout's access e-mail ("once the payment is confirmed") nor the delivery e-mail fits.
import { html } from '../../web/html.ts'
import type { Mail } from '../email/service.ts'

export function handGrantEmail(input: {
  name: string
  productName: string
  accountName: string
  /** A one-time log-in link for a new user; existing users log in as they always do. */
  loginUrl: string | null
  membersUrl: string
}): Omit<Mail, 'to'> {
  const subject = `Seu acesso foi liberado: ${input.productName}`
  const link = input.loginUrl ?? input.membersUrl
  const how = input.loginUrl
    ? 'Entre por este link (vale por 7 dias e pode ser usado uma vez):'
    : 'Acesse a área de membros:'
  const text = `Olá, ${input.name}!

${input.accountName} liberou para você o acesso a "${input.productName}" na área de membros da Vitrine.

${how}
${link}
`
  const body = html`<p>Olá, ${input.name}!</p>
<p>${input.accountName} liberou para você o acesso a <strong>${input.productName}</strong> na área de membros da Vitrine.</p>
<p><a href="${link}">Entrar na área de membros</a></p>`
  return {
    subject,
    text,
    html: `<!doctype html><html lang="pt-BR"><body>${body.html}</body></html>`,
  }
}
