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
import type { CheckoutConfig, PlanLabels } from './config.ts'

const SCRIPT = browserScript('checkout', new URL('./browser/main.ts', import.meta.url))

export interface CheckoutView {
  product: {
    id: string
    slug: string
    name: string
    description: string | null
    /** An https URL the creator gave (catalog `image_url`), shown with its size fixed. */
    imageUrl: string | null
    guaranteeDays: number
    /** The selling account's name ("Vendido por"). */
    sellerName: string | null
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
.capa{display:block;width:100%;height:auto;aspect-ratio:16/9;object-fit:cover;border-radius:8px;background:#e9e9ee}
.cupom{display:grid;grid-template-columns:1fr auto;gap:8px;align-items:end}.cupom button{width:auto}
.erro-campo{color:#c0262d;font-size:.9rem;margin:4px 0 0}.selo{font-weight:600;color:#1d6b34}
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

/** Each plan's labels for the browser script, with or without a coupon (also the coupon field's answer). */
export function planLabels(
  view: Pick<CheckoutView, 'product' | 'plans' | 'installmentRateBps'>,
): PlanLabels[] {
  const methods = view.product.paymentMethods
  return view.plans.map((p) => {
    const amount = p.discountedCents ?? p.priceCents
    return {
      id: p.id,
      price: formatBrl(amount) + (p.interval ? INTERVAL[p.interval] : ''),
      originalLabel: p.discountedCents === null ? '' : formatBrl(p.priceCents),
      installments: methods.includes('card') ? installmentLabels(view, amount) : [],
    }
  })
}

function installmentLabels(
  view: Pick<CheckoutView, 'product' | 'installmentRateBps'>,
  cents: number,
) {
  return installmentChoices(
    {
      billing: view.product.billing,
      max_installments: view.product.maxInstallments,
      installment_interest: view.product.installmentInterest,
    },
    cents,
    view.installmentRateBps,
  ).map(installmentLabel)
}

export function checkoutPage(view: CheckoutView): string {
  return render(<CheckoutPage view={view} />)
}

function CheckoutPage({ view }: { view: CheckoutView }): VNode {
  // What the product takes (the seed's default for one_time: PIX only, with no card form).
  const methods = view.product.paymentMethods
  const selected = view.plans.find((p) => p.id === view.selectedPlanId) ?? view.plans[0]!
  const choices = (cents: number) => installmentLabels(view, cents)
  const cardEntry = view.cardEntry
  const config: CheckoutConfig = {
    productId: view.product.id,
    couponUrl: `/checkout/${view.product.slug}/cupom`,
    // Labels made here, so money is formatted and rounded only by kit/money.
    plans: planLabels(view),
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
      <ProductCard product={view.product} total={formatBrl(total)} />
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
        <Field
          error="live"
          name="name"
          label="Nome completo"
          value={view.prefill.name}
          autocomplete="name"
        />
        <Field
          error="live"
          name="email"
          label="E-mail"
          value={view.prefill.email}
          type="email"
          autocomplete="email"
        />
        <div class="grid2">
          <Field
            error="live"
            name="cpf"
            label="CPF ou CNPJ"
            value=""
            inputMode="numeric"
            autocomplete="off"
            placeholder="000.000.000-00"
          />
          <Field
            error="live"
            name="phone"
            label="Celular"
            value=""
            type="tel"
            inputMode="numeric"
            autocomplete="tel-national"
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
        <CouponField coupon={coupon} />
        <p id="erro-geral" class="alerta" role="alert" tabindex={-1} hidden />
        <button id="pagar" type="submit">
          {BUTTON[methods[0]!]}
        </button>
        <p id="aguarde" class="muted" role="status" />
        <p class="muted">
          Ao comprar, você aceita os <a href="/termos">Termos de uso</a> e a{' '}
          <a href="/privacidade">Política de privacidade</a> da Vitrine.
        </p>
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
        <button id="boleto-copiar" type="button">
          Copiar linha digitável
        </button>
        <p id="boleto-situacao" role="status" />
        <p>
          Vencimento: <strong id="boleto-vencimento" />. A compensação leva até 3 dias úteis.
        </p>
        <p id="boleto-pdf" hidden>
          {/* biome-ignore lint/a11y/useValidAnchor: the script sets the gateway's boleto URL */}
          <a id="boleto-url" target="_blank" rel="noopener noreferrer">
            Abrir o boleto para imprimir (PDF)
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

/** What is bought, from whom, for how much, and the guarantee. Nothing here takes the focus. */
function ProductCard(props: { product: CheckoutView['product']; total: string }): VNode {
  const { product } = props
  const days = product.guaranteeDays
  return (
    <div class="card">
      {product.imageUrl ? (
        // The size is fixed before the image arrives, so nothing below it jumps.
        <img class="capa" src={product.imageUrl} alt={product.name} width={640} height={360} />
      ) : null}
      <h1>{product.name}</h1>
      {product.sellerName ? (
        <p class="muted">
          Vendido por <strong>{product.sellerName}</strong>
        </p>
      ) : null}
      {product.description ? <p class="muted">{product.description}</p> : null}
      <p aria-live="polite">
        <s id="preco-original" class="muted" />{' '}
        <span id="preco" class="preco">
          {props.total}
        </span>
      </p>
      {days > 0 ? <p class="selo">{`Garantia de ${days} ${days === 1 ? 'dia' : 'dias'}`}</p> : null}
    </div>
  )
}

/**
 * The coupon: "Aplicar" asks the server for the plans' prices with it (browser/coupon.ts). The
 * line beside it says what happened, a link's coupon included ("Cupom inválido: X").
 */
function CouponField(props: { coupon: CheckoutView['coupon'] }): VNode {
  const { coupon } = props
  const message = !coupon
    ? ''
    : coupon.error
      ? `${coupon.error}: ${coupon.code}`
      : `Cupom ${coupon.code} aplicado`
  return (
    <div>
      <div class="cupom">
        <div>
          <label for="cupom">Cupom de desconto</label>
          <input
            id="cupom"
            name="coupon"
            value={coupon?.code ?? ''}
            maxLength={64}
            autocomplete="off"
            autocapitalize="characters"
            spellcheck={false}
            aria-describedby="cupom-situacao"
          />
        </div>
        <button id="cupom-aplicar" type="button">
          Aplicar
        </button>
      </div>
      <p id="cupom-situacao" role="status" class={coupon?.error ? 'erro-campo' : 'muted'}>
        {message}
      </p>
    </div>
  )
}

interface InputAttrs {
  type?: 'email' | 'tel'
  inputMode?: 'numeric' | 'tel'
  autocomplete?: string
  placeholder?: string
}

/**
 * A labelled input. `error` gives it the line the script writes its error to, tied to it by
 * aria-describedby: 'live' (the buyer's details: required, announced politely) or 'alert' (card
 * fields: announced at once, hidden while empty so the page never holds empty alerts).
 */
function Field(
  props: { name: string; label: string; value?: string; error?: 'live' | 'alert' } & InputAttrs,
): VNode {
  const { name, label, error, ...attrs } = props
  const errorId = error ? `erro-${name}` : undefined
  return (
    <div>
      <label for={name}>{label}</label>
      <input
        id={name}
        name={name}
        {...(attrs as InputHTMLAttributes)}
        required={error === 'live' || undefined}
        aria-describedby={errorId}
      />
      {error === 'live' ? <p id={errorId} class="erro" aria-live="polite" /> : null}
      {error === 'alert' ? <p id={errorId} class="erro-campo" role="alert" hidden /> : null}
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
        <Field
          name="boleto_cep"
          label="CEP"
          inputMode="numeric"
          autocomplete="postal-code"
          placeholder="01310-100"
        />
        <Field name="boleto_numero" label="Número" autocomplete="off" />
      </div>
      <Field name="boleto_rua" label="Rua" autocomplete="address-line1" />
      <Field name="boleto_bairro" label="Bairro" autocomplete="off" />
      <div class="grid2">
        <Field name="boleto_cidade" label="Cidade" autocomplete="address-level2" />
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
      <Field
        error="alert"
        name="card_number"
        label="Número do cartão"
        inputMode="numeric"
        autocomplete="cc-number"
        placeholder="0000 0000 0000 0000"
      />
      <Field
        error="alert"
        name="card_holder"
        label="Nome impresso no cartão"
        autocomplete="cc-name"
      />
      <div class="grid2">
        <Field
          error="alert"
          name="card_expiry"
          label="Validade (MM/AA)"
          inputMode="numeric"
          autocomplete="cc-exp"
          placeholder="12/30"
        />
        <Field
          error="alert"
          name="card_cvv"
          label="CVV"
          inputMode="numeric"
          autocomplete="cc-csc"
        />
      </div>
      {props.entry.kind === 'card-data' ? (
        <div class="grid2">
          <Field
            name="postal_code"
            label="CEP do titular"
            inputMode="numeric"
            autocomplete="postal-code"
            placeholder="01310-100"
          />
          <Field
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
