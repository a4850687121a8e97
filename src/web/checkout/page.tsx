// Server-rendered hosted checkout (pt-BR, mobile-first, accessible). The page is complete
// HTML; its browser script (browser/main.ts) only adds behaviour.
import type { InputHTMLAttributes, VNode } from 'preact'
import type { InstallmentInterest, PaymentMethod } from '../../kit/db-schema.ts'
import { formatBrl, type InstallmentPlan } from '../../kit/money.ts'
import { installmentChoices } from '../../modules/checkout/installments.ts'
import type { CardEntry } from '../../modules/payments/gateway.ts'
import { browserScript } from '../assets.ts'
import { Layout } from '../layout.tsx'
import { JsonScript, render } from '../render.tsx'
import type { CheckoutConfig } from './config.ts'

const SCRIPT = browserScript('checkout', new URL('./browser/main.ts', import.meta.url))

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

type Plan = CheckoutView['plans'][number]

function PlanOption(props: { plan: Plan; checked: boolean }): VNode {
  const { plan } = props
  const price =
    formatBrl(plan.discountedCents ?? plan.priceCents) +
    (plan.interval ? INTERVAL[plan.interval] : '')
  return (
    <label class="opcao">
      <input type="radio" name="plan" value={plan.id} checked={props.checked} /> {plan.name} —{' '}
      {price}
    </label>
  )
}

export function checkoutPage(view: CheckoutView): string {
  return render(<CheckoutPage view={view} />)
}

function CheckoutPage({ view }: { view: CheckoutView }): VNode {
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
  const config: CheckoutConfig = {
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
  const { coupon } = view
  return (
    <Layout title={view.product.name} css={CSS}>
      <div class="card">
        <h1>{view.product.name}</h1>
        {view.product.description ? <p class="muted">{view.product.description}</p> : null}
        <p aria-live="polite">
          <s id="preco-original" class="muted" />{' '}
          <span id="preco" class="preco">
            {formatBrl(total)}
          </span>
        </p>
        {coupon?.error ? (
          <p class="alerta" role="status">
            {`${coupon.error}: ${coupon.code}`}
          </p>
        ) : null}
        {coupon && !coupon.error ? <p class="muted">{`Cupom ${coupon.code} aplicado`}</p> : null}
      </div>
      <form id="checkout-form" class="card" novalidate aria-label="Dados da compra">
        {view.plans.length > 1 ? (
          <fieldset>
            <legend>Plano</legend>
            {view.plans.map((p) => (
              <PlanOption key={p.id} plan={p} checked={p.id === view.selectedPlanId} />
            ))}
          </fieldset>
        ) : (
          <input type="hidden" name="plan_single" value={selected.id} />
        )}
        <Field name="name" label="Nome completo" value={view.prefill.name} autocomplete="name" />
        <Field
          name="email"
          label="E-mail"
          value={view.prefill.email}
          type="email"
          autocomplete="email"
        />
        <div class="grid2">
          <Field name="cpf" label="CPF ou CNPJ" value="" autocomplete="off" />
          <Field
            name="phone"
            label="Celular"
            value=""
            type="tel"
            inputMode="tel"
            autocomplete="tel"
            placeholder="(11) 98765-4321"
          />
        </div>
        <fieldset>
          <legend>Forma de pagamento</legend>
          {methods.map((m, i) => (
            <label key={m} class="opcao">
              <input type="radio" name="method" value={m} checked={i === 0} /> {METHOD_LABEL[m]}
            </label>
          ))}
        </fieldset>
        {methods.includes('card') ? (
          <CardFields installments={choices(total)} entry={cardEntry} />
        ) : null}
        {methods.includes('boleto') && view.boletoAddress ? <AddressFields /> : null}
        <p id="erro-geral" class="alerta" role="alert" tabindex={-1} hidden />
        <button id="pagar" type="submit">
          {BUTTON[methods[0]!]}
        </button>
        <p class="muted">
          {`Pagamento processado com segurança. ${
            cardEntry.kind === 'card-data'
              ? 'Os dados do cartão são repassados uma única vez ao processador de pagamentos e não ficam guardados.'
              : 'Seus dados de cartão vão direto para o processador de pagamentos.'
          }`}
        </p>
      </form>
      <section id="pix" class="card" hidden tabindex={-1} aria-labelledby="pix-titulo">
        <h2 id="pix-titulo">Pague com PIX</h2>
        <p>
          Abra o app do seu banco, escolha PIX e escaneie o QR code ou use o código copia e cola.
        </p>
        <img id="pix-qr" alt="QR code PIX para pagamento" width="280" height="280" />
        <label for="pix-codigo">PIX copia e cola</label>
        <textarea id="pix-codigo" rows={3} readonly />
        <button id="pix-copiar" type="button">
          Copiar código
        </button>
        <p>
          O código expira em{' '}
          <strong id="pix-tempo" role="timer">
            30:00
          </strong>
          .
        </p>
        <p id="pix-situacao" role="status">
          Aguardando pagamento…
        </p>
      </section>
      <section id="boleto" class="card" hidden tabindex={-1} aria-labelledby="boleto-titulo">
        <h2 id="boleto-titulo">Boleto gerado</h2>
        <img id="boleto-barras" alt="Código de barras do boleto" />
        <label for="boleto-linha">Linha digitável</label>
        <textarea id="boleto-linha" rows={2} readonly />
        <p>
          Vencimento: <strong id="boleto-vencimento" />. A compensação leva até 3 dias úteis.
        </p>
        <p id="boleto-pdf" hidden>
          {/* biome-ignore lint/a11y/useValidAnchor: the script sets the gateway's boleto URL */}
          <a id="boleto-url" target="_blank" rel="noopener noreferrer">
            Abrir o boleto para imprimir
          </a>
        </p>
      </section>
      <section id="expirado" class="card" hidden tabindex={-1} aria-labelledby="expirado-titulo">
        <h2 id="expirado-titulo">O prazo para pagamento terminou</h2>
        <p id="expirado-texto">
          Nenhuma cobrança foi feita. Seus dados continuam preenchidos: gere um novo código para
          concluir a compra.
        </p>
        <button id="recomecar" type="button">
          Começar de novo
        </button>
      </section>
      <JsonScript id="checkout-config" value={config} />
      {/* MercadoPago.js only where it tokenizes this page's cards (the CSP allows just its origin). */}
      {methods.includes('card') && cardEntry.kind === 'browser-token' ? (
        <script src={cardEntry.scriptUrl} />
      ) : null}
      <script src={SCRIPT} />
    </Layout>
  )
}

interface InputAttrs {
  type?: 'email' | 'tel'
  inputMode?: 'numeric' | 'tel'
  autocomplete?: string
  placeholder?: string
}

/** A labelled text input with its error message, announced and tied to it by aria-describedby. */
function Field(props: { name: string; label: string; value: string } & InputAttrs): VNode {
  const { name, label, ...attrs } = props
  return (
    <div>
      <label for={name}>{label}</label>
      <input
        id={name}
        name={name}
        {...(attrs as InputHTMLAttributes)}
        required
        aria-describedby={`erro-${name}`}
      />
      <p id={`erro-${name}`} class="erro" aria-live="polite" />
    </div>
  )
}

/** A labelled input without an error line (card and address parts). */
function Input(props: { name: string; label: string } & InputAttrs): VNode {
  const { name, label, ...attrs } = props
  return (
    <div>
      <label for={name}>{label}</label>
      <input id={name} name={name} {...(attrs as InputHTMLAttributes)} />
    </div>
  )
}

const UFS =
  'AC AL AP AM BA CE DF ES GO MA MT MS MG PA PB PR PE PI RJ RN RS RO RR SC SP SE TO'.split(' ')

/** The payer's address, for gateways that register a boleto with it. */
function AddressFields(): VNode {
  return (
    <fieldset id="campos-endereco" hidden>
      <legend>Endereço para o boleto</legend>
      <div class="grid2">
        <Input
          name="boleto_cep"
          label="CEP"
          inputMode="numeric"
          autocomplete="postal-code"
          placeholder="01310-100"
        />
        <Input name="boleto_numero" label="Número" autocomplete="off" />
      </div>
      <Input name="boleto_rua" label="Rua" autocomplete="address-line1" />
      <Input name="boleto_bairro" label="Bairro" autocomplete="off" />
      <div class="grid2">
        <Input name="boleto_cidade" label="Cidade" autocomplete="address-level2" />
        <div>
          <label for="boleto_uf">UF</label>
          <select id="boleto_uf" name="boleto_uf" autocomplete="address-level1">
            <option value="" />
            {UFS.map((uf) => (
              <option key={uf}>{uf}</option>
            ))}
          </select>
        </div>
      </div>
    </fieldset>
  )
}

const BUTTON = { pix: 'Gerar PIX', card: 'Pagar com cartão', boleto: 'Gerar boleto' } as const

/**
 * Card fields. Test tokens and MercadoPago.js turn them into a token in the page; a gateway that
 * takes card data (Asaas) gets them posted once, with the holder's CEP and address number.
 */
function CardFields(props: { installments: string[]; entry: CardEntry }): VNode {
  return (
    <div id="campos-cartao" hidden>
      <Input
        name="card_number"
        label="Número do cartão"
        inputMode="numeric"
        autocomplete="cc-number"
      />
      <Input name="card_holder" label="Nome impresso no cartão" autocomplete="cc-name" />
      <div class="grid2">
        <Input
          name="card_expiry"
          label="Validade (MM/AA)"
          inputMode="numeric"
          autocomplete="cc-exp"
          placeholder="12/30"
        />
        <Input name="card_cvv" label="CVV" inputMode="numeric" autocomplete="cc-csc" />
      </div>
      {props.entry.kind === 'card-data' ? (
        <div class="grid2">
          <Input
            name="postal_code"
            label="CEP do titular"
            inputMode="numeric"
            autocomplete="postal-code"
            placeholder="01310-100"
          />
          <Input
            name="address_number"
            label="Número do endereço"
            inputMode="numeric"
            autocomplete="off"
          />
        </div>
      ) : null}
      <div>
        <label for="installments">Parcelas</label>
        <select id="installments" name="installments">
          {props.installments.map((label, i) => (
            <option key={label} value={i + 1}>
              {label}
            </option>
          ))}
        </select>
      </div>
    </div>
  )
}

/**
 * "3x de R$ 33,34 sem juros" when the seller pays the interest (the first, largest part), or
 * "3x de R$ 35,35 (total R$ 106,05)" when the buyer does. Also handed to the browser script per
 * plan, which shows them when the plan changes.
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
  return render(
    <Layout title="Obrigado pela compra">
      {input.paid ? (
        <div class="card">
          <h1>Pagamento confirmado!</h1>
          <p>
            Sua compra de <strong>{input.productName}</strong> foi aprovada. Enviamos o acesso para
            o seu e-mail.
          </p>
          <p>
            <a class="btn" href={input.membersUrl}>
              Ir para a área de membros
            </a>
          </p>
        </div>
      ) : (
        <div class="card">
          <h1>Quase lá!</h1>
          <p>
            Estamos aguardando a confirmação do pagamento de <strong>{input.productName}</strong>.
            Assim que ela chegar, você recebe o acesso por e-mail.
          </p>
        </div>
      )}
    </Layout>,
  )
}

export function notFoundPage(): string {
  return render(
    <Layout title="Produto não encontrado">
      <div class="card">
        <h1>Produto não encontrado</h1>
        <p>
          Este link de compra não existe ou o produto não está mais à venda. Confira o endereço com
          quem o enviou.
        </p>
      </div>
    </Layout>,
  )
}
