// The hosted checkout's only script: no framework, a few KB. It validates the form (CPF/CNPJ
// check digits too), keeps the checkout session up to date as the buyer types, takes the card
// as the gateway does (a token made in the page, or the card data for gateways that take it),
// and follows the payment. Bundled for the browser by web/assets.ts.
import type { CheckoutConfig } from '../config.ts'
import { cardFieldError, cardFieldOf, clearCardErrors, validateCard } from './card-errors.ts'
import { wireCoupon } from './coupon.ts'
import { followOrder } from './follow-order.ts'
import { wireMasks } from './masks.ts'
import { type Answer, lostAnswer, orderSender, sessionAttemptStore } from './send-order.ts'

/** MercadoPago.js, loaded by the page before this script where it tokenizes cards. */
interface MercadoPagoJs {
  createCardToken(card: Record<string, string>): Promise<{ id?: string }>
  getPaymentMethods(query: {
    bin: string
  }): Promise<{ results?: { id: string; issuer?: { id?: string | number } }[] }>
}
declare global {
  interface Window {
    MercadoPago: new (publicKey: string, options: { locale: string }) => MercadoPagoJs
  }
}

/** What the buyer reads while a charge of unknown outcome is confirmed, and if it was not. */
const CONFIRMING =
  'Confirmando o pagamento com a operadora. Isso pode levar alguns minutos: não feche esta página nem pague de novo.'
const NOT_CHARGED =
  'O pagamento não foi concluído e nada foi cobrado. Confira os dados e tente de novo.'

/** The answer of POST /api/checkout/create the page acts on. */
interface CreateResult {
  error?: string
  details?: { path: string; message: string }[]
  status?: string
  order_id: string
  pix?: { qr_code: string; copy_paste: string; expires_at: string }
  boleto?: {
    digitable_line: string
    due_date: string
    barcode_image?: string
    pdf_url?: string | null
    url?: string | null
  }
}

type Method = 'pix' | 'card' | 'boleto'
type Field = HTMLInputElement & HTMLSelectElement
/** The form's named controls (page.tsx); the card and address ones exist only where offered. */
type FieldName =
  | 'name'
  | 'email'
  | 'cpf'
  | 'phone'
  | 'installments'
  | 'card_number'
  | 'card_holder'
  | 'card_expiry'
  | 'card_cvv'
  | 'postal_code'
  | 'address_number'
  | 'boleto_cep'
  | 'boleto_rua'
  | 'boleto_numero'
  | 'boleto_bairro'
  | 'boleto_cidade'
  | 'boleto_uf'

{
  const cfg = JSON.parse(
    document.getElementById('checkout-config')!.textContent ?? '{}',
  ) as CheckoutConfig
  const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T
  const form = $<HTMLFormElement>('checkout-form')
  const f = new Proxy({} as Record<FieldName, Field>, {
    get: (_, name: string) => form.elements.namedItem(name) as Field,
  })
  const digits = (s: string) => s.replace(/\D/g, '')

  function mod11(values: number[], weights: number[]) {
    const rest = values.reduce((sum, v, i) => sum + v * weights[i]!, 0) % 11
    return rest < 2 ? 0 : 11 - rest
  }
  function validCpf(text: string) {
    const d = digits(text)
    if (d.length !== 11 || /^(\d)\1{10}$/.test(d)) return false
    const n = [...d].map(Number)
    return (
      n[9] === mod11(n.slice(0, 9), [10, 9, 8, 7, 6, 5, 4, 3, 2]) &&
      n[10] === mod11(n.slice(0, 10), [11, 10, 9, 8, 7, 6, 5, 4, 3, 2])
    )
  }
  function validCnpj(text: string) {
    const v = text.replace(/[.\-/\s]/g, '').toUpperCase()
    if (!/^[0-9A-Z]{12}\d{2}$/.test(v) || /^(\d)\1{13}$/.test(v)) return false
    const n = [...v].map((c) => c.charCodeAt(0) - 48)
    const w1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
    return n[12] === mod11(n.slice(0, 12), w1) && n[13] === mod11(n.slice(0, 13), [6, ...w1])
  }
  const validPhone = (t: string) => /^(55)?[1-9]{2}(9\d{8}|[2-5]\d{7})$/.test(digits(t))

  function fieldError(name: FieldName, message: string) {
    const el = $(`erro-${name}`)
    el.textContent = message || ''
    f[name].setAttribute('aria-invalid', message ? 'true' : 'false')
    return !message
  }

  // Checkout session: created when the e-mail is known, then patched as the buyer types.
  let session = cfg.session
  let patchTimer: ReturnType<typeof setTimeout> | undefined
  async function ensureSession() {
    const email = f.email.value.trim()
    if (session || !/^\S+@\S+\.\S+$/.test(email)) return
    const res = await fetch('/api/checkout/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ product_id: cfg.productId, plan_id: selectedPlan().id, email }),
    })
    if (res.ok) {
      const body = await res.json()
      session = { id: body.session_id, token: body.session_token }
    }
  }
  // What the session last stored: typing in a field it does not keep (the card, the address)
  // sends nothing.
  let patched = ''
  function schedulePatch() {
    clearTimeout(patchTimer)
    patchTimer = setTimeout(async () => {
      await ensureSession()
      if (!session) return
      const body = JSON.stringify({
        session_token: session.token,
        name: f.name.value,
        cpf: f.cpf.value,
        phone: f.phone.value,
        plan_id: selectedPlan().id,
        // A removed coupon is removed from the session too (its recovery link).
        ...(cfg.coupon ? { coupon_code: cfg.coupon } : couponRemoved ? { coupon_code: '' } : {}),
      })
      if (body === patched) return
      const res = await fetch(`/api/checkout/sessions/${session.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body,
      }).catch(() => null)
      if (res?.ok) patched = body
    }, 600)
  }
  form.addEventListener('input', schedulePatch)
  wireMasks(form)
  let couponRemoved = false

  const selectedPlan = () => {
    const checked = form.querySelector<HTMLInputElement>('input[name="plan"]:checked')
    return cfg.plans.find((p) => p.id === (checked ? checked.value : cfg.plans[0]!.id))!
  }
  const selectedMethod = (): Method => {
    const checked = form.querySelector<HTMLInputElement>('input[name="method"]:checked')
    return checked ? (checked.value as Method) : 'pix'
  }
  function refresh() {
    const plan = selectedPlan()
    $('preco').textContent = plan.price
    $('preco-original').textContent = plan.originalLabel || ''
    const card = selectedMethod() === 'card'
    const addressFields = $('campos-endereco')
    if (addressFields) {
      const boleto = selectedMethod() === 'boleto'
      addressFields.hidden = !boleto
      for (const el of addressFields.querySelectorAll<Field>('input, select')) el.required = boleto
    }
    const cardFields = $('campos-cartao')
    if (cardFields) {
      cardFields.hidden = !card
      for (const el of cardFields.querySelectorAll<Field>('input, select')) el.required = card
      // Installments follow the chosen plan's price (labels made by the server).
      for (const [i, option] of [...f.installments.options].entries()) {
        option.textContent = plan.installments[i] ?? ''
      }
    }
    $('pagar').textContent = card
      ? 'Pagar com cartão'
      : selectedMethod() === 'boleto'
        ? 'Gerar boleto'
        : 'Gerar PIX'
  }
  form.addEventListener('change', refresh)
  refresh()
  wireCoupon(cfg, (coupon) => {
    couponRemoved = coupon === null
    refresh()
    schedulePatch()
  })

  function validate() {
    let ok = fieldError('name', f.name.value.trim().length >= 2 ? '' : 'Informe seu nome completo.')
    ok =
      fieldError(
        'email',
        /^\S+@\S+\.\S+$/.test(f.email.value.trim()) ? '' : 'Informe um e-mail válido.',
      ) && ok
    ok =
      fieldError(
        'cpf',
        validCpf(f.cpf.value) || validCnpj(f.cpf.value) ? '' : 'CPF ou CNPJ inválido.',
      ) && ok
    ok = fieldError('phone', validPhone(f.phone.value) ? '' : 'Informe um celular com DDD.') && ok
    if (selectedMethod() === 'card') ok = validateCard(form) && ok
    else clearCardErrors()
    if (!ok) form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
    return ok
  }

  // The card as this gateway takes it (cfg.cardEntry): a test token from the sandbox, a token
  // from MercadoPago.js, or the card data itself with the holder's CEP and address number.
  async function cardFieldsOf() {
    const kind = cfg.cardEntry.kind
    if (kind === 'card-data') {
      const [month, year] = expiryOf(f.card_expiry.value)
      return {
        card: {
          holder_name: f.card_holder.value.trim(),
          number: digits(f.card_number.value),
          expiry_month: month,
          expiry_year: year,
          cvv: f.card_cvv.value.trim(),
        },
        postal_code: digits(f.postal_code.value),
        address_number: f.address_number.value.trim(),
      }
    }
    return {
      card_token: kind === 'browser-token' ? await mercadoPagoToken() : await tokenizeCard(),
    }
  }

  function expiryOf(text: string): [string, string] {
    const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text)
    if (!match) throw new Error('Confira a validade do cartão (MM/AA).')
    const [, month, year] = match as unknown as [string, string, string]
    return [month.padStart(2, '0'), year.length === 2 ? `20${year}` : year]
  }

  // MercadoPago.js (loaded by the page only for this gateway): the card becomes a one-use token
  // in the browser; its payment method and issuer come from the card's first digits. Sent as
  // `<token>:<payment_method_id>[:<issuer_id>]`, the form the Mercado Pago adapter reads.
  async function mercadoPagoToken() {
    const number = digits(f.card_number.value)
    const [month, year] = expiryOf(f.card_expiry.value)
    const document = digits(f.cpf.value)
    const publicKey = cfg.cardEntry.kind === 'browser-token' ? cfg.cardEntry.publicKey : ''
    const mp = new window.MercadoPago(publicKey, { locale: 'pt-BR' })
    let token: { id?: string } | undefined
    let method: { id: string; issuer?: { id?: string | number } } | undefined
    try {
      token = await mp.createCardToken({
        cardNumber: number,
        cardholderName: f.card_holder.value.trim(),
        cardExpirationMonth: month,
        cardExpirationYear: year,
        securityCode: f.card_cvv.value.trim(),
        identificationType: document.length === 14 ? 'CNPJ' : 'CPF',
        identificationNumber: document,
      })
      const found = await mp.getPaymentMethods({ bin: number.slice(0, 8) })
      method = found.results?.[0]
    } catch {
      throw new Error('Confira os dados do cartão.')
    }
    if (!token?.id || !method) throw new Error('Confira os dados do cartão.')
    return [token.id, method.id, method.issuer?.id].filter(Boolean).join(':')
  }

  async function tokenizeCard(): Promise<string> {
    const res = await fetch(cfg.tokenizeUrl ?? '', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        number: f.card_number.value,
        holder: f.card_holder.value,
        expiry: f.card_expiry.value,
        cvv: f.card_cvv.value,
      }),
    })
    const body = await res.json()
    if (!res.ok) throw new Error(body.error || 'Cartão inválido.')
    return body.token
  }

  function showError(message: string) {
    // A message about one card field (the gateway's check of the card data) goes beside it.
    const field = cardFieldOf(message)
    if (field && selectedMethod() === 'card') {
      cardFieldError(field, message)
      $(field).focus()
      return
    }
    $('erro-geral').textContent = message
    $('erro-geral').hidden = false
    $('erro-geral').focus()
  }

  /**
   * A failed order's message. Our own are plain Errors; the browser's (a failed fetch,
   * unreadable JSON) are in English and say nothing to a buyer.
   */
  function showFailure(error: unknown) {
    const ours = error instanceof Error && error.constructor === Error && error.message
    showError(ours || 'Não foi possível concluir. Tente de novo.')
  }

  // The tab's unanswered order, by product: another product's page in the tab has its own.
  const attemptStore = sessionAttemptStore(`vitrine:checkout-attempt:${cfg.productId}`)
  const sendOrder = orderSender(attemptStore, (message) => {
    $('aguarde').textContent = message
  })

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    if (confirming) return
    $('erro-geral').hidden = true
    $('expirado').hidden = true
    if (!validate()) return
    const button = $<HTMLButtonElement>('pagar')
    button.disabled = true
    button.setAttribute('aria-busy', 'true')
    try {
      const method = selectedMethod()
      const order: Record<string, unknown> = {
        product_id: cfg.productId,
        plan_id: selectedPlan().id,
        name: f.name.value.trim(),
        email: f.email.value.trim(),
        cpf: f.cpf.value,
        phone: f.phone.value,
        payment_method: method,
      }
      if (cfg.coupon) order.coupon_code = cfg.coupon
      if (cfg.affiliateCode) order.affiliate_code = cfg.affiliateCode
      if (method === 'boleto' && $('campos-endereco')) {
        order.address = {
          postal_code: digits(f.boleto_cep.value),
          street: f.boleto_rua.value.trim(),
          number: f.boleto_numero.value.trim(),
          neighborhood: f.boleto_bairro.value.trim(),
          city: f.boleto_cidade.value.trim(),
          state: f.boleto_uf.value,
        }
      }
      // The card as typed is part of the attempt: a field changed makes the next submit a new one.
      const card =
        method === 'card'
          ? [...$('campos-cartao').querySelectorAll<Field>('input, select')].map((el) => el.value)
          : null
      const answer = await sendOrder<CreateResult>(JSON.stringify([order, card]), async () => ({
        ...order,
        // The session is the page's bookkeeping, not the buyer's choice, and it may open
        // between two clicks (600 ms after the last keystroke): out of the attempt's intent, or
        // paying again after a lost answer would be a new purchase, charged twice.
        ...(session ? { session_id: session.id } : {}),
        ...(card ? { ...(await cardFieldsOf()), installments: Number(f.installments.value) } : {}),
      }))
      showAnswer(answer)
    } catch (error) {
      showFailure(error)
    } finally {
      // While a payment of unknown outcome is confirmed, the button stays off and says why.
      if (!confirming) {
        $('aguarde').textContent = ''
        button.disabled = false
      }
      button.removeAttribute('aria-busy')
    }
  })

  /** What the order became: a paid card followed to success, a PIX or boleto shown, or an error thrown. */
  function showAnswer({ res, result, method }: Answer<CreateResult>) {
    // The countdown runs on the server's time: the Date header corrects a skewed device clock.
    const serverNow = Date.parse(res.headers.get('date') ?? '')
    skewMs = Number.isNaN(serverNow) ? 0 : serverNow - Date.now()
    if (!res.ok) {
      // A card's money may have moved; a PIX or boleto moves none until the buyer pays it.
      const unknownCard =
        res.status === 502 &&
        method === 'card' &&
        result.details?.find((d) => d.path === 'order_id')
      if (unknownCard) return confirmUnknownPayment(unknownCard.message)
      throw new Error(
        result.error === 'Validation failed' ? 'Confira os dados do formulário.' : result.error,
      )
    }
    const attempt = ++attempts
    if (result.status === 'paid') return follow(result.order_id, attempt)
    form.hidden = true
    if (result.pix) showPix(result, attempt)
    if (result.boleto) showBoleto(result)
    follow(result.order_id, attempt)
  }

  // Each generated charge is an attempt; a newer one silences the timers of the older.
  let attempts = 0
  let skewMs = 0

  /**
   * The gateway's answer to a card's charge never came (a 502 naming the order): whether it
   * was charged is known only when reconciliation looks, minutes later. The page waits for the
   * order, its button off, instead of inviting a second payment: paid goes to the success
   * page; failed means nothing was charged, and the buyer may try again.
   */
  let confirming = false
  function confirmUnknownPayment(orderId: string) {
    confirming = true
    $<HTMLButtonElement>('pagar').disabled = true
    $('aguarde').textContent = CONFIRMING
    follow(orderId, ++attempts, () => {
      confirming = false
      $('aguarde').textContent = ''
      $<HTMLButtonElement>('pagar').disabled = false
      showError(NOT_CHARGED)
    })
  }

  // An order sent from this tab whose answer was lost before a reload: what it became, not the
  // form again (paying again would be a second purchase, a card charged twice).
  void lostAnswer<CreateResult>(attemptStore, (message) => {
    $('aguarde').textContent = message
  }).then((answer) => {
    $('aguarde').textContent = ''
    if (!answer) return
    try {
      showAnswer(answer)
    } catch (error) {
      showFailure(error)
    }
  })

  $('pix-copiar').addEventListener('click', async () => {
    const code = $<HTMLTextAreaElement>('pix-codigo').value
    try {
      await navigator.clipboard.writeText(code)
    } catch {
      $<HTMLTextAreaElement>('pix-codigo').select()
      document.execCommand('copy')
    }
    $('pix-copiar').textContent = 'Código copiado!'
    $('pix-situacao').textContent = 'Código copiado. Aguardando pagamento…'
  })

  function showPix(result: CreateResult, attempt: number) {
    const pix = result.pix!
    $('pix').hidden = false
    $<HTMLImageElement>('pix-qr').src = pix.qr_code
    $<HTMLTextAreaElement>('pix-codigo').value = pix.copy_paste
    $('pix-copiar').textContent = 'Copiar código'
    $('pix-situacao').textContent = 'Aguardando pagamento…'
    const expires = Date.parse(pix.expires_at)
    const tick = () => {
      if (attempt !== attempts) return
      const left = Math.max(0, Math.round((expires - Date.now() - skewMs) / 1000))
      $('pix-tempo').textContent =
        `${String(Math.floor(left / 60)).padStart(2, '0')}:${String(left % 60).padStart(2, '0')}`
      if (left > 0) setTimeout(tick, 1000)
      else showExpired('pix')
    }
    tick()
    $('pix').focus()
  }

  // Expired (or failed) charge: say so and offer to start again with the form still filled in.
  function showExpired(method: Method) {
    if (!$('expirado').hidden) return
    $('pix').hidden = true
    $('boleto').hidden = true
    $('expirado-titulo').textContent =
      method === 'boleto' ? 'O boleto venceu' : 'O código PIX expirou'
    $('expirado').hidden = false
    $('expirado').focus()
  }
  $('recomecar').addEventListener('click', () => {
    attempts++
    $('expirado').hidden = true
    form.hidden = false
    $('pagar').focus()
  })

  let boletoLine = ''
  // The digits alone: every bank app takes them, with or without the dots.
  $('boleto-copiar').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(boletoLine)
    } catch {
      $<HTMLTextAreaElement>('boleto-linha').select()
      document.execCommand('copy')
    }
    $('boleto-copiar').textContent = 'Linha copiada!'
    $('boleto-situacao').textContent = 'Linha digitável copiada. Pague no app do seu banco.'
  })

  function showBoleto(result: CreateResult) {
    const boleto = result.boleto!
    $('boleto').hidden = false
    const l = boleto.digitable_line
    $<HTMLTextAreaElement>('boleto-linha').value =
      `${l.slice(0, 5)}.${l.slice(5, 10)} ${l.slice(10, 15)}.${l.slice(15, 21)} ${l.slice(21, 26)}.${l.slice(26, 32)} ${l[32]} ${l.slice(33)}`
    $('boleto-vencimento').textContent = boleto.due_date.split('-').reverse().join('/')
    if (boleto.barcode_image) $<HTMLImageElement>('boleto-barras').src = boleto.barcode_image
    boletoLine = l
    $('boleto-copiar').textContent = 'Copiar linha digitável'
    $('boleto-situacao').textContent = ''
    // The gateway's printable boleto (PDF), when it has one.
    const url = boleto.pdf_url ?? boleto.url
    $('boleto-pdf').hidden = !(url && /^https?:\/\//.test(url))
    if (url && !$('boleto-pdf').hidden) $<HTMLAnchorElement>('boleto-url').href = url
    $('boleto').focus()
  }

  // Follows the order (browser/follow-order.ts) to its success page, or to `ended` when it
  // expires or fails (the expiry notice, unless told otherwise).
  function follow(orderId: string, attempt: number, ended = () => showExpired(selectedMethod())) {
    followOrder(orderId, {
      current: () => attempt === attempts,
      settled: (order) => {
        if (order.status === 'paid' && order.redirect_url) {
          window.location.assign(order.redirect_url)
          return true
        }
        if (order.status !== 'expired' && order.status !== 'failed') return false
        ended()
        return true
      },
    })
  }
}
