// Server-rendered hosted checkout (pt-BR, mobile-first, accessible). The page is complete
// HTML; client.js only adds behaviour.
import { readFileSync } from 'node:fs'
import type { InstallmentInterest, PaymentMethod } from '../../kit/db-schema.ts'
import { formatBrl, type InstallmentPlan } from '../../kit/money.ts'
import { installmentChoices } from '../../modules/checkout/installments.ts'
import type { CardEntry } from '../../modules/payments/gateway.ts'
import { scriptFile } from '../assets.ts'
import { html, page, raw, type Safe } from '../html.ts'

const SCRIPT = scriptFile('checkout', readFileSync(new URL('./client.js', import.meta.url), 'utf8'))

export interface CheckoutView {
  product: {
    id: string
    name: string
    description: string | null
    billing: 'one_time' | 'recurring'
    paymentMethods: PaymentMethod[]
    maxInstallments: number
    installmentInterest: InstallmentInterest
  }
  plans: {
    id: string
    name: string
    priceCents: number
    discountedCents: number | null
    interval: string | null
  }[]
  selectedPlanId: string
  coupon: { code: string; error: string | null } | null
  affiliateCode: string | null
  /** Never the CPF or phone (see routes.ts): only what the link's holder could know. */
  prefill: { email: string; name: string }
  session: { id: string; token: string } | null
  tokenizeUrl: string | null
  /** How this gateway takes a card: test tokens, a browser script, or the card data itself. */
  cardEntry: CardEntry
  /** The gateway registers boletos with the payer's address (Mercado Pago): ask for it. */
  boletoAddress: boolean
  /** CARD_INSTALLMENT_INTEREST, for the labels of installments whose interest the buyer pays. */
  installmentRateBps: number
}

const INTERVAL = { month: '/mês', year: '/ano' } as Record<string, string>
const METHOD_LABEL = { pix: 'PIX', card: 'Cartão de crédito', boleto: 'Boleto' } as const

// Borders and focus rings keep 3:1 against white (WCAG 1.4.11); text keeps 4.5:1.
const CSS = `
[hidden]{display:none!important}form,section{display:grid;gap:12px}label{font-weight:600;font-size:.95rem}
input,select,button,textarea{font:inherit;width:100%;padding:12px;border:1px solid #8a8a94;border-radius:8px;background:#fff;color:inherit}
input:focus,select:focus,textarea:focus{border-color:#5b2bd6}
input[aria-invalid=true]{border-color:#c0262d}.erro{color:#c0262d;font-size:.9rem;min-height:1em;margin:0}
fieldset{border:0;padding:0;margin:0;display:grid;gap:8px}legend{font-weight:600;margin-bottom:4px}
.opcao{display:flex;gap:8px;align-items:center;border:1px solid #8a8a94;border-radius:8px;padding:10px;font-weight:400}
.opcao:has(input:checked){border-color:#5b2bd6;box-shadow:inset 0 0 0 1px #5b2bd6}
.opcao input{width:auto;margin:0}button{background:#5b2bd6;color:#fff;border:0;font-weight:700;cursor:pointer}
button[disabled]{opacity:.6}.preco{font-size:1.6rem;font-weight:800}.grid2{display:grid;grid-template-columns:1fr 1fr;gap:12px}
#pix img{width:min(280px,100%);height:auto;image-rendering:pixelated;margin:0 auto;display:block}
#boleto img{max-width:100%;height:auto;display:block}textarea{resize:vertical;word-break:break-all}
@media (max-width:400px){.grid2{grid-template-columns:1fr}}
.alerta{background:#fdecec;color:#8a1c21;padding:12px;border-radius:8px}`

function planOption(view: CheckoutView, plan: CheckoutView['plans'][number]): Safe {
  const price =
    formatBrl(plan.discountedCents ?? plan.priceCents) +
    (plan.interval ? INTERVAL[plan.interval] : '')
  return html`<label class="opcao"><input type="radio" name="plan" value="${plan.id}"
    ${plan.id === view.selectedPlanId ? html`checked` : ''}> ${plan.name} — ${price}</label>`
}

export function checkoutPage(view: CheckoutView): string {
  // What the product takes (the seed's default for one_time: PIX only, with no card form).
  const methods = view.product.paymentMethods
  const selected = view.plans.find((p) => p.id === view.selectedPlanId) ?? view.plans[0]!
  const choices = (cents: number) =>
    installmentChoices(
      {
        billing: view.product.billing,
        max_installments: view.product.maxInstallments,
        installment_interest: view.product.installmentInterest,
      },
      cents,
      view.installmentRateBps,
    ).map(installmentLabel)
  const cardEntry = view.cardEntry
  const config = {
    productId: view.product.id,
    // Labels made here, so money is formatted and rounded only by kit/money.
    plans: view.plans.map((p) => {
      const amount = p.discountedCents ?? p.priceCents
      return {
        id: p.id,
        price: formatBrl(amount) + (p.interval ? INTERVAL[p.interval] : ''),
        originalLabel: p.discountedCents === null ? '' : formatBrl(p.priceCents),
        installments: methods.includes('card') ? choices(amount) : [],
      }
    }),
    coupon: view.coupon && !view.coupon.error ? view.coupon.code : null,
    affiliateCode: view.affiliateCode,
    session: view.session,
    tokenizeUrl: view.tokenizeUrl,
    cardEntry:
      cardEntry.kind === 'browser-token'
        ? { kind: cardEntry.kind, publicKey: cardEntry.publicKey }
        : { kind: cardEntry.kind },
  }
  const total = selected.discountedCents ?? selected.priceCents
  // MercadoPago.js only where it tokenizes this page's cards (the CSP allows just its origin).
  const gatewayScript =
    methods.includes('card') && cardEntry.kind === 'browser-token'
      ? html`<script src="${cardEntry.scriptUrl}"></script>`
      : ''
  const body = html`
<div class="card"><h1>${view.product.name}</h1>
  ${view.product.description ? html`<p class="muted">${view.product.description}</p>` : ''}
  <p aria-live="polite"><s id="preco-original" class="muted"></s> <span id="preco" class="preco">${formatBrl(total)}</span></p>
  ${view.coupon?.error ? html`<p class="alerta" role="status">${view.coupon.error}: ${view.coupon.code}</p>` : ''}
  ${view.coupon && !view.coupon.error ? html`<p class="muted">Cupom ${view.coupon.code} aplicado</p>` : ''}
</div>
<form id="checkout-form" class="card" novalidate aria-label="Dados da compra">
  ${
    view.plans.length > 1
      ? html`<fieldset><legend>Plano</legend>${view.plans.map((p) => planOption(view, p))}</fieldset>`
      : html`<input type="hidden" name="plan_single" value="${selected.id}">`
  }
  ${field('name', 'Nome completo', view.prefill.name, html`autocomplete="name"`)}
  ${field('email', 'E-mail', view.prefill.email, html`type="email" autocomplete="email"`)}
  <div class="grid2">
    ${field('cpf', 'CPF ou CNPJ', '', html`autocomplete="off"`)}
    ${field('phone', 'Celular', '', html`type="tel" inputmode="tel" autocomplete="tel" placeholder="(11) 98765-4321"`)}
  </div>
  <fieldset><legend>Forma de pagamento</legend>
    ${methods.map(
      (m, i) =>
        html`<label class="opcao"><input type="radio" name="method" value="${m}" ${i === 0 ? html`checked` : ''}> ${METHOD_LABEL[m]}</label>`,
    )}
  </fieldset>
  ${methods.includes('card') ? cardFields(choices(total), cardEntry) : ''}
  ${methods.includes('boleto') && view.boletoAddress ? addressFields() : ''}
  <p id="erro-geral" class="alerta" role="alert" tabindex="-1" hidden></p>
  <button id="pagar" type="submit">${BUTTON[methods[0]!]}</button>
  <p class="muted">Pagamento processado com segurança. ${
    cardEntry.kind === 'card-data'
      ? 'Os dados do cartão são repassados uma única vez ao processador de pagamentos e não ficam guardados.'
      : 'Seus dados de cartão vão direto para o processador de pagamentos.'
  }</p>
</form>
<section id="pix" class="card" hidden tabindex="-1" aria-labelledby="pix-titulo">
  <h2 id="pix-titulo">Pague com PIX</h2>
  <p>Abra o app do seu banco, escolha PIX e escaneie o QR code ou use o código copia e cola.</p>
  <img id="pix-qr" alt="QR code PIX para pagamento" width="280" height="280">
  <label for="pix-codigo">PIX copia e cola</label>
  <textarea id="pix-codigo" rows="3" readonly></textarea>
  <button id="pix-copiar" type="button">Copiar código</button>
  <p>O código expira em <strong id="pix-tempo" role="timer">30:00</strong>.</p>
  <p id="pix-situacao" role="status">Aguardando pagamento…</p>
</section>
<section id="boleto" class="card" hidden tabindex="-1" aria-labelledby="boleto-titulo">
  <h2 id="boleto-titulo">Boleto gerado</h2>
  <img id="boleto-barras" alt="Código de barras do boleto">
  <label for="boleto-linha">Linha digitável</label>
  <textarea id="boleto-linha" rows="2" readonly></textarea>
  <p>Vencimento: <strong id="boleto-vencimento"></strong>. A compensação leva até 3 dias úteis.</p>
  <p id="boleto-pdf" hidden><a id="boleto-url" target="_blank" rel="noopener noreferrer">Abrir o boleto para imprimir</a></p>
</section>
<section id="expirado" class="card" hidden tabindex="-1" aria-labelledby="expirado-titulo">
  <h2 id="expirado-titulo">O prazo para pagamento terminou</h2>
  <p id="expirado-texto">Nenhuma cobrança foi feita. Seus dados continuam preenchidos: gere um novo código para concluir a compra.</p>
  <button id="recomecar" type="button">Começar de novo</button>
</section>
<script type="application/json" id="checkout-config">${jsonForScript(config)}</script>
${gatewayScript}${SCRIPT}`
  return page(view.product.name, body, CSS)
}

/** A labelled text input with its error message, announced and tied to it by aria-describedby. */
function field(name: string, label: string, value: string, attrs: Safe): Safe {
  return html`<div><label for="${name}">${label}</label>
    <input id="${name}" name="${name}" ${attrs} required value="${value}" aria-describedby="erro-${name}">
    <p id="erro-${name}" class="erro" aria-live="polite"></p></div>`
}

const UFS =
  'AC AL AP AM BA CE DF ES GO MA MT MS MG PA PB PR PE PI RJ RN RS RO RR SC SP SE TO'.split(' ')

/** The payer's address, for gateways that register a boleto with it. */
function addressFields(): Safe {
  const input = (name: string, label: string, attrs: Safe = html``) =>
    html`<div><label for="${name}">${label}</label><input id="${name}" name="${name}" ${attrs}></div>`
  return html`<fieldset id="campos-endereco" hidden><legend>Endereço para o boleto</legend>
    <div class="grid2">
      ${input('boleto_cep', 'CEP', html`inputmode="numeric" autocomplete="postal-code" placeholder="01310-100"`)}
      ${input('boleto_numero', 'Número', html`autocomplete="off"`)}
    </div>
    ${input('boleto_rua', 'Rua', html`autocomplete="address-line1"`)}
    ${input('boleto_bairro', 'Bairro', html`autocomplete="off"`)}
    <div class="grid2">
      ${input('boleto_cidade', 'Cidade', html`autocomplete="address-level2"`)}
      <div><label for="boleto_uf">UF</label>
        <select id="boleto_uf" name="boleto_uf" autocomplete="address-level1"><option value=""></option>${UFS.map(
          (uf) => html`<option>${uf}</option>`,
        )}</select></div>
    </div>
  </fieldset>`
}

const BUTTON = { pix: 'Gerar PIX', card: 'Pagar com cartão', boleto: 'Gerar boleto' } as const

/**
 * Card fields. Test tokens and MercadoPago.js turn them into a token in the page; a gateway that
 * takes card data (Asaas) gets them posted once, with the holder's CEP and address number.
 */
function cardFields(installments: string[], entry: CardEntry): Safe {
  const numeric = html`inputmode="numeric"`
  return html`<div id="campos-cartao" hidden>
    <div><label for="card_number">Número do cartão</label>
      <input id="card_number" name="card_number" ${numeric} autocomplete="cc-number"></div>
    <div><label for="card_holder">Nome impresso no cartão</label>
      <input id="card_holder" name="card_holder" autocomplete="cc-name"></div>
    <div class="grid2">
      <div><label for="card_expiry">Validade (MM/AA)</label>
        <input id="card_expiry" name="card_expiry" ${numeric} autocomplete="cc-exp" placeholder="12/30"></div>
      <div><label for="card_cvv">CVV</label>
        <input id="card_cvv" name="card_cvv" ${numeric} autocomplete="cc-csc"></div>
    </div>
    ${
      entry.kind === 'card-data'
        ? html`<div class="grid2">
      <div><label for="postal_code">CEP do titular</label>
        <input id="postal_code" name="postal_code" ${numeric} autocomplete="postal-code" placeholder="01310-100"></div>
      <div><label for="address_number">Número do endereço</label>
        <input id="address_number" name="address_number" ${numeric} autocomplete="off"></div>
    </div>`
        : ''
    }
    <div><label for="installments">Parcelas</label>
      <select id="installments" name="installments">${installments.map(
        (label, i) => html`<option value="${i + 1}">${label}</option>`,
      )}</select></div>
  </div>`
}

/**
 * "3x de R$ 33,34 sem juros" when the seller pays the interest (the first, largest part), or
 * "3x de R$ 35,35 (total R$ 106,05)" when the buyer does. Also handed to client.js per plan,
 * which shows them when the plan changes.
 */
const installmentLabel = (plan: InstallmentPlan) => {
  const each = `${plan.count}x de ${formatBrl(plan.parts[0]!)}`
  if (plan.count === 1) return `${each} à vista`
  return plan.interestCents > 0
    ? `${each} (total ${formatBrl(plan.totalCents)})`
    : `${each} sem juros`
}

export function successPage(input: {
  productName: string
  paid: boolean
  membersUrl: string
}): string {
  const body = input.paid
    ? html`<div class="card"><h1>Pagamento confirmado!</h1>
        <p>Sua compra de <strong>${input.productName}</strong> foi aprovada. Enviamos o acesso para o seu e-mail.</p>
        <p><a class="btn" href="${input.membersUrl}">Ir para a área de membros</a></p></div>`
    : html`<div class="card"><h1>Quase lá!</h1>
        <p>Estamos aguardando a confirmação do pagamento de <strong>${input.productName}</strong>.
        Assim que ela chegar, você recebe o acesso por e-mail.</p></div>`
  return page('Obrigado pela compra', body)
}

export function notFoundPage(): string {
  return page(
    'Produto não encontrado',
    html`<div class="card"><h1>Produto não encontrado</h1>
      <p>Este link de compra não existe ou o produto não está mais à venda. Confira o endereço com quem o enviou.</p></div>`,
  )
}

/** JSON inside <script>: `<` escaped so the content can never close the tag. */
function jsonForScript(value: unknown): Safe {
  return raw(JSON.stringify(value).replace(/</g, '\\u003c'))
}
