// Every e-mail the platform sends, in Brazilian Portuguese, each with a text and an HTML part
// carrying the same content.
import { formatBrl } from '../../kit/money.ts'
import { html, type Safe } from '../../web/html.ts'
import type { Mail } from './service.ts'

type Rendered = Omit<Mail, 'to'>

const METHOD_LABELS = { pix: 'PIX', card: 'Cartão de crédito', boleto: 'Boleto' } as const

/** "Olá, <nome>!", or "Olá!" without a name. */
const greeting = (name: string) => (name ? `Olá, ${name}!` : 'Olá!')

/** The last line of every mail of sale notifications. */
const SALE_NOTICES_OFF =
  'Para deixar de receber estes avisos, desative as notificações de venda nas configurações da conta.'

/** To the account's owner when an order is paid (issue 12: sale notifications). */
export function saleNotificationEmail(input: {
  ownerName: string
  productName: string
  amountCents: number
  buyerName: string
  buyerEmail: string
  method: keyof typeof METHOD_LABELS
  installments: number
  renewal: boolean
  orderUrl: string
}): Rendered {
  const amount = formatBrl(input.amountCents)
  const subject = `Venda aprovada: ${input.productName} — ${amount}`
  const method =
    input.method === 'card' && input.installments > 1
      ? `${METHOD_LABELS.card} em ${input.installments}x`
      : METHOD_LABELS[input.method]
  const hello = greeting(input.ownerName)
  const what = input.renewal ? 'Uma assinatura foi renovada' : 'Você fez uma venda'
  const text = `${hello}

${what}: "${input.productName}", ${amount}.

Comprador: ${input.buyerName} (${input.buyerEmail})
Forma de pagamento: ${method}

Ver o pedido: ${input.orderUrl}

${SALE_NOTICES_OFF}
`
  return {
    subject,
    text,
    html: layout(
      subject,
      html`<p>${hello}</p>
<p>${what}: <strong>${input.productName}</strong>, <strong>${amount}</strong>.</p>
<p>Comprador: ${input.buyerName} (${input.buyerEmail})<br>Forma de pagamento: ${method}</p>
${button(input.orderUrl, 'Ver o pedido')}
${fineprint(SALE_NOTICES_OFF)}`,
    ),
  }
}

/** Products a sale summary names; the rest are counted in one line. */
const SUMMARY_PRODUCTS = 10

const salesCount = (n: number) => (n === 1 ? '1 venda' : `${n} vendas`)

/**
 * To the account's owner, the sales of a notice window but the one told at once (issue 13:
 * sale-notices/), per product, the best-selling first.
 */
export function saleSummaryEmail(input: {
  ownerName: string
  products: { name: string; sales: number; amountCents: number }[]
  ordersUrl: string
}): Rendered {
  const sales = input.products.reduce((n, p) => n + p.sales, 0)
  const total = formatBrl(input.products.reduce((cents, p) => cents + p.amountCents, 0))
  const approved = sales === 1 ? 'aprovada' : 'aprovadas'
  const subject = `Mais ${salesCount(sales)} ${approved} — ${total}`
  const hello = greeting(input.ownerName)
  const what = `Desde o último aviso, você fez mais ${salesCount(sales)}, no total de ${total}:`
  const named = input.products.slice(0, SUMMARY_PRODUCTS)
  const others = input.products.length - named.length
  const lines = named.map((p) => `${p.name}: ${salesCount(p.sales)}, ${formatBrl(p.amountCents)}`)
  if (others > 0) lines.push(others === 1 ? 'e mais 1 produto' : `e mais ${others} produtos`)
  const why =
    'Quando as vendas chegam em sequência, você recebe o aviso da primeira na hora e um resumo das demais a cada minuto.'
  const text = `${hello}

${what}

${lines.map((line) => `- ${line}`).join('\n')}

Ver os pedidos: ${input.ordersUrl}

${why}
${SALE_NOTICES_OFF}
`
  return {
    subject,
    text,
    html: layout(
      subject,
      html`<p>${hello}</p>
<p>${what}</p>
<ul>${lines.map((line) => html`<li>${line}</li>`)}</ul>
${button(input.ordersUrl, 'Ver os pedidos')}
${fineprint(`${why} ${SALE_NOTICES_OFF}`)}`,
    ),
  }
}

function layout(title: string, body: Safe): string {
  return html`<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>${title}</title></head>
<body style="margin:0;background:#f6f6f8;font-family:Arial,Helvetica,sans-serif;color:#1d1d1f">
<div style="max-width:560px;margin:0 auto;padding:24px">
<div style="background:#fff;border-radius:12px;padding:24px;line-height:1.5">${body}</div>
<p style="color:#888;font-size:12px;text-align:center">Enviado pela Vitrine</p></div></body></html>`
    .html
}

/** A muted line under a mail's body: what a link is valid for, how to turn a mail off. */
function fineprint(text: string): Safe {
  return html`<p style="color:#666;font-size:13px">${text}</p>`
}

function button(href: string, label: string): Safe {
  return html`<p><a href="${href}" style="display:inline-block;background:#5b2bd6;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none">${label}</a></p>`
}

export function accessEmail(input: {
  buyerName: string
  productName: string
  loginUrl: string
}): Rendered {
  const subject = `Seu acesso à área de membros: ${input.productName}`
  const text = `Olá, ${input.buyerName}!

Criamos seu acesso à área de membros da Vitrine, onde ficam os produtos que você compra.
Assim que o pagamento de "${input.productName}" for confirmado, o conteúdo aparece lá.

Entre por este link (vale por 7 dias e pode ser usado uma vez):
${input.loginUrl}
`
  return {
    subject,
    text,
    html: layout(
      subject,
      html`<p>Olá, ${input.buyerName}!</p>
<p>Criamos seu acesso à área de membros da Vitrine, onde ficam os produtos que você compra.
Assim que o pagamento de <strong>${input.productName}</strong> for confirmado, o conteúdo aparece lá.</p>
${button(input.loginUrl, 'Entrar na área de membros')}
${fineprint('O link vale por 7 dias e pode ser usado uma vez.')}`,
    ),
  }
}

export function deliveryEmail(input: {
  buyerName: string
  productName: string
  amountCents: number
  orderId: string
  deliveryUrl: string | null
  membersUrl: string
}): Rendered {
  const subject = `Pagamento confirmado: ${input.productName}`
  const link = input.deliveryUrl ?? input.membersUrl
  const text = `Olá, ${input.buyerName}!

Recebemos seu pagamento de ${formatBrl(input.amountCents)} por "${input.productName}". Seu acesso já está liberado.

Acesse o conteúdo: ${link}
Área de membros: ${input.membersUrl}

Pedido ${input.orderId}
`
  return {
    subject,
    text,
    html: layout(
      subject,
      html`<p>Olá, ${input.buyerName}!</p>
<p>Recebemos seu pagamento de <strong>${formatBrl(input.amountCents)}</strong> por
<strong>${input.productName}</strong>. Seu acesso já está liberado.</p>
${button(link, 'Acessar o conteúdo')}
<p>Tudo o que você comprou fica na <a href="${input.membersUrl}">área de membros</a>.</p>
${fineprint(`Pedido ${input.orderId}`)}`,
    ),
  }
}

export function cartRecoveryEmail(input: {
  buyerName: string
  productName: string
  checkoutLink: string
}): Rendered {
  const subject = `Sua compra de ${input.productName} está esperando por você`
  const hello = greeting(input.buyerName)
  const text = `${hello}

Vimos que você começou a comprar "${input.productName}" e não terminou. Guardamos seus dados:
é só continuar de onde parou.

${input.checkoutLink}
`
  return {
    subject,
    text,
    html: layout(
      subject,
      html`<p>${hello}</p>
<p>Vimos que você começou a comprar <strong>${input.productName}</strong> e não terminou.
Guardamos seus dados: é só continuar de onde parou.</p>
${button(input.checkoutLink, 'Continuar minha compra')}`,
    ),
  }
}

/** A log-in link the user asked for on the members page (it lives an hour). */
export function loginLinkEmail(input: { name: string; loginUrl: string }): Rendered {
  const subject = 'Seu link de acesso à área de membros'
  const text = `Olá, ${input.name}!

Você pediu um link para entrar na área de membros da Vitrine.

Entre por este link (vale por 1 hora e pode ser usado uma vez):
${input.loginUrl}

Se não foi você, ignore este e-mail: ninguém entra na sua conta sem este link.
`
  return {
    subject,
    text,
    html: layout(
      subject,
      html`<p>Olá, ${input.name}!</p>
<p>Você pediu um link para entrar na área de membros da Vitrine.</p>
${button(input.loginUrl, 'Entrar na área de membros')}
${fineprint('O link vale por 1 hora e pode ser usado uma vez.\nSe não foi você, ignore este e-mail: ninguém entra na sua conta sem este link.')}`,
    ),
  }
}

export function partnerInvitationEmail(input: {
  role: 'affiliate' | 'coproducer'
  productName: string
  creatorName: string
  loginUrl: string
}): Rendered {
  const role = input.role === 'affiliate' ? 'afiliado(a)' : 'coprodutor(a)'
  const subject = `Convite: seja ${role} de ${input.productName}`
  const text = `Olá!

${input.creatorName} convidou você para ser ${role} de "${input.productName}" na Vitrine.
Seus ganhos e saques ficam no seu painel.

Entre por este link para ativar seu acesso e definir sua senha (vale por 7 dias e pode ser usado uma vez):
${input.loginUrl}
`
  return {
    subject,
    text,
    html: layout(
      subject,
      html`<p>Olá!</p>
<p><strong>${input.creatorName}</strong> convidou você para ser ${role} de
<strong>${input.productName}</strong> na Vitrine. Seus ganhos e saques ficam no seu painel.</p>
${button(input.loginUrl, 'Ativar meu acesso')}
${fineprint('Use o link para definir sua senha. Ele vale por 7 dias e pode ser usado uma vez.')}`,
    ),
  }
}

export function refundCompletedEmail(input: {
  buyerName: string
  productName: string
  amountCents: number
  orderId: string
}): Rendered {
  const subject = `Reembolso concluído: ${input.productName}`
  const text = `Olá, ${input.buyerName}!

O reembolso de ${formatBrl(input.amountCents)} da sua compra de "${input.productName}" foi concluído.
O valor volta pelo mesmo meio de pagamento; o prazo para aparecer depende do seu banco ou
da operadora do cartão. O acesso ao produto foi encerrado.

Pedido ${input.orderId}
`
  return {
    subject,
    text,
    html: layout(
      subject,
      html`<p>Olá, ${input.buyerName}!</p>
<p>O reembolso de <strong>${formatBrl(input.amountCents)}</strong> da sua compra de
<strong>${input.productName}</strong> foi concluído.</p>
<p>O valor volta pelo mesmo meio de pagamento; o prazo para aparecer depende do seu banco ou
da operadora do cartão. O acesso ao produto foi encerrado.</p>
${fineprint(`Pedido ${input.orderId}`)}`,
    ),
  }
}

/** A date as a Brazilian reads it (dd/mm/aaaa), on the Brasília calendar. */
function brDate(date: Date): string {
  return date.toLocaleDateString('pt-BR', { timeZone: 'America/Sao_Paulo' })
}

export function renewalChargeEmail(input: {
  buyerName: string
  productName: string
  amountCents: number
  periodEnd: Date
  pixCopyPaste: string | null
  boleto: { digitableLine: string; dueDate: string } | null
  membersUrl: string
}): Rendered {
  const subject = `Renovação da sua assinatura: ${input.productName}`
  const amount = formatBrl(input.amountCents)
  const until = brDate(input.periodEnd)
  const code = input.pixCopyPaste ?? input.boleto?.digitableLine ?? ''
  const how = input.pixCopyPaste
    ? 'Pague com Pix copiando este código no app do seu banco:'
    : `Pague o boleto pela linha digitável (vence em ${input.boleto?.dueDate.split('-').reverse().join('/')}):`
  const text = `Olá, ${input.buyerName}!

Sua assinatura de "${input.productName}" renova em ${until}. O valor da renovação é ${amount}.

${how}
${code}

Assim que o pagamento for confirmado, seu acesso continua sem interrupção.
Área de membros: ${input.membersUrl}
`
  return {
    subject,
    text,
    html: layout(
      subject,
      html`<p>Olá, ${input.buyerName}!</p>
<p>Sua assinatura de <strong>${input.productName}</strong> renova em <strong>${until}</strong>.
O valor da renovação é <strong>${amount}</strong>.</p>
<p>${how}</p>
<p style="word-break:break-all;font-family:monospace;background:#f6f6f8;padding:12px;border-radius:8px">${code}</p>
<p>Assim que o pagamento for confirmado, seu acesso continua sem interrupção.</p>
${button(input.membersUrl, 'Ir para a área de membros')}`,
    ),
  }
}

export function subscriptionPastDueEmail(input: {
  buyerName: string
  productName: string
  byCard: boolean
  cancelsAt: Date
}): Rendered {
  const subject = `Pagamento pendente: ${input.productName}`
  const problem = input.byCard
    ? 'Não conseguimos cobrar a renovação no seu cartão. Vamos tentar de novo nos próximos dias; confira se o cartão tem limite e está válido.'
    : 'Ainda não identificamos o pagamento da renovação. Use o Pix ou o boleto que enviamos por e-mail.'
  const deadline = `Se o pagamento não for confirmado até ${brDate(input.cancelsAt)}, a assinatura será cancelada e o acesso, encerrado.`
  const text = `Olá, ${input.buyerName}!

${problem}

${deadline}
`
  return {
    subject,
    text,
    html: layout(
      subject,
      html`<p>Olá, ${input.buyerName}!</p>
<p>${problem}</p>
<p>${deadline}</p>`,
    ),
  }
}

export function subscriptionCanceledEmail(input: {
  buyerName: string
  productName: string
  reason: 'canceled' | 'unpaid' | 'refunded' | 'chargeback'
}): Rendered {
  const subject = `Assinatura cancelada: ${input.productName}`
  const why = {
    unpaid: 'Como o pagamento da renovação não foi confirmado, sua assinatura foi cancelada.',
    refunded: 'Com o reembolso do pagamento, sua assinatura foi cancelada.',
    canceled: 'Sua assinatura foi cancelada.',
    chargeback: 'Sua assinatura foi cancelada.',
  }[input.reason]
  const text = `Olá, ${input.buyerName}!

${why} O acesso a "${input.productName}" foi encerrado e nenhuma nova cobrança será feita.
Para voltar, é só assinar de novo pela página do produto.
`
  return {
    subject,
    text,
    html: layout(
      subject,
      html`<p>Olá, ${input.buyerName}!</p>
<p>${why} O acesso a <strong>${input.productName}</strong> foi encerrado e nenhuma nova
cobrança será feita.</p>
<p>Para voltar, é só assinar de novo pela página do produto.</p>`,
    ),
  }
}

export function webhookDisabledEmail(input: {
  ownerName: string
  url: string
  reason: 'gone' | 'failing'
  docsUrl: string
}): Rendered {
  const subject = 'Webhook desativado na Vitrine'
  const why =
    input.reason === 'gone'
      ? 'O endereço respondeu 410 (Gone), que indica que ele não existe mais.'
      : 'Todas as entregas para ele falharam nas últimas 24 horas.'
  const text = `Olá, ${input.ownerName}!

Desativamos o webhook ${input.url}. ${why}

Os eventos novos não serão enviados para ele enquanto estiver desativado. Depois de corrigir o
endereço, reative o webhook (PATCH /api/v1/webhooks/{id} com "is_active": true) e reenvie as
entregas que falharam pelo registro de entregas.

Como fazer: ${input.docsUrl}
`
  return {
    subject,
    text,
    html: layout(
      subject,
      html`<p>Olá, ${input.ownerName}!</p>
<p>Desativamos o webhook <strong>${input.url}</strong>. ${why}</p>
<p>Os eventos novos não serão enviados para ele enquanto estiver desativado. Depois de corrigir o
endereço, reative o webhook e reenvie as entregas que falharam pelo registro de entregas.</p>
${button(input.docsUrl, 'Ver a documentação da API')}`,
    ),
  }
}

const WITHDRAWAL_NEWS: Record<
  'pending' | 'approved' | 'paid' | 'rejected',
  (note: string) => string
> = {
  pending: () => 'Recebemos seu pedido de saque. Ele será analisado pela nossa equipe.',
  approved: () => 'Seu saque foi aprovado e a transferência Pix está em andamento.',
  paid: () => 'Seu saque foi pago: a transferência Pix foi feita para a sua chave.',
  rejected: (note) => `Seu saque foi recusado e o valor voltou para o seu saldo. Motivo: ${note}`,
}

const WITHDRAWAL_SUBJECT = {
  pending: 'Pedido de saque recebido',
  approved: 'Saque aprovado',
  paid: 'Saque pago',
  rejected: 'Saque recusado',
} as const

export function withdrawalStatusEmail(input: {
  name: string
  amountCents: number
  status: keyof typeof WITHDRAWAL_SUBJECT
  adminNote: string | null
  maskedPixKey: string
}): Rendered {
  const subject = `${WITHDRAWAL_SUBJECT[input.status]}: ${formatBrl(input.amountCents)}`
  const news = WITHDRAWAL_NEWS[input.status](input.adminNote ?? '')
  const text = `Olá, ${input.name}!

${news}

Valor: ${formatBrl(input.amountCents)}
Chave Pix: ${input.maskedPixKey}
`
  return {
    subject,
    text,
    html: layout(
      subject,
      html`<p>Olá, ${input.name}!</p>
<p>${news}</p>
<p>Valor: <strong>${formatBrl(input.amountCents)}</strong><br>Chave Pix: ${input.maskedPixKey}</p>`,
    ),
  }
}

/** "Esqueci minha senha": a one-time link to the set-password form (it lives an hour). */
export function passwordResetEmail(input: { name: string; resetUrl: string }): Rendered {
  const subject = 'Redefinição de senha da Vitrine'
  const text = `Olá, ${input.name}!

Você pediu para redefinir sua senha da Vitrine.

Crie uma nova senha por este link (vale por 1 hora e pode ser usado uma vez):
${input.resetUrl}

Se não foi você, ignore este e-mail: sua senha continua a mesma.
`
  return {
    subject,
    text,
    html: layout(
      subject,
      html`<p>Olá, ${input.name}!</p>
<p>Você pediu para redefinir sua senha da Vitrine.</p>
${button(input.resetUrl, 'Criar nova senha')}
${fineprint('O link vale por 1 hora e pode ser usado uma vez.\nSe não foi você, ignore este e-mail: sua senha continua a mesma.')}`,
    ),
  }
}
