// The hosted checkout's only script: no framework, a few KB. It validates the form (CPF/CNPJ
// check digits too), keeps the checkout session up to date as the buyer types, takes the card
// as the gateway does (a token made in the page, or the card data for gateways that take it),
// and follows the payment.
;(() => {
  const cfg = JSON.parse(document.getElementById('checkout-config').textContent)
  const $ = (id) => document.getElementById(id)
  const form = $('checkout-form')
  const digits = (s) => s.replace(/\D/g, '')

  function mod11(values, weights) {
    const rest = values.reduce((sum, v, i) => sum + v * weights[i], 0) % 11
    return rest < 2 ? 0 : 11 - rest
  }
  function validCpf(text) {
    const d = digits(text)
    if (d.length !== 11 || /^(\d)\1{10}$/.test(d)) return false
    const n = [...d].map(Number)
    return (
      n[9] === mod11(n.slice(0, 9), [10, 9, 8, 7, 6, 5, 4, 3, 2]) &&
      n[10] === mod11(n.slice(0, 10), [11, 10, 9, 8, 7, 6, 5, 4, 3, 2])
    )
  }
  function validCnpj(text) {
    const v = text.replace(/[.\-/\s]/g, '').toUpperCase()
    if (!/^[0-9A-Z]{12}\d{2}$/.test(v) || /^(\d)\1{13}$/.test(v)) return false
    const n = [...v].map((c) => c.charCodeAt(0) - 48)
    const w1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
    return n[12] === mod11(n.slice(0, 12), w1) && n[13] === mod11(n.slice(0, 13), [6, ...w1])
  }
  const validPhone = (t) => /^(55)?[1-9]{2}(9\d{8}|[2-5]\d{7})$/.test(digits(t))

  function fieldError(name, message) {
    const el = $(`erro-${name}`)
    el.textContent = message || ''
    form.elements[name].setAttribute('aria-invalid', message ? 'true' : 'false')
    return !message
  }

  // Checkout session: created when the e-mail is known, then patched as the buyer types.
  let session = cfg.session
  let patchTimer
  async function ensureSession() {
    const email = form.elements.email.value.trim()
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
  function schedulePatch() {
    clearTimeout(patchTimer)
    patchTimer = setTimeout(async () => {
      await ensureSession()
      if (!session) return
      const f = form.elements
      await fetch(`/api/checkout/sessions/${session.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          session_token: session.token,
          name: f.name.value,
          cpf: f.cpf.value,
          phone: f.phone.value,
          plan_id: selectedPlan().id,
          ...(cfg.coupon ? { coupon_code: cfg.coupon } : {}),
        }),
      })
    }, 600)
  }
  form.addEventListener('input', schedulePatch)

  const selectedPlan = () => {
    const checked = form.querySelector('input[name="plan"]:checked')
    return cfg.plans.find((p) => p.id === (checked ? checked.value : cfg.plans[0].id))
  }
  const selectedMethod = () => {
    const checked = form.querySelector('input[name="method"]:checked')
    return checked ? checked.value : 'pix'
  }
  function refresh() {
    const plan = selectedPlan()
    $('preco').textContent = plan.price
    $('preco-original').textContent = plan.originalLabel || ''
    const card = selectedMethod() === 'card'
    const cardFields = $('campos-cartao')
    if (cardFields) {
      cardFields.hidden = !card
      for (const el of cardFields.querySelectorAll('input, select')) el.required = card
      // Installments follow the chosen plan's price (labels made by the server).
      for (const [i, option] of [...form.elements.installments.options].entries()) {
        option.textContent = plan.installments[i]
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

  function validate() {
    const f = form.elements
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
    if (!ok) form.querySelector('[aria-invalid="true"]').focus()
    return ok
  }

  // The card as this gateway takes it (cfg.cardEntry): a test token from the sandbox, a token
  // from MercadoPago.js, or the card data itself with the holder's CEP and address number.
  async function cardFieldsOf() {
    const f = form.elements
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

  function expiryOf(text) {
    const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text)
    if (!match) throw new Error('Confira a validade do cartão (MM/AA).')
    return [match[1].padStart(2, '0'), match[2].length === 2 ? `20${match[2]}` : match[2]]
  }

  // MercadoPago.js (loaded by the page only for this gateway): the card becomes a one-use token
  // in the browser; its payment method and issuer come from the card's first digits. Sent as
  // `<token>:<payment_method_id>[:<issuer_id>]`, the form the Mercado Pago adapter reads.
  async function mercadoPagoToken() {
    const f = form.elements
    const number = digits(f.card_number.value)
    const [month, year] = expiryOf(f.card_expiry.value)
    const document = digits(f.cpf.value)
    const mp = new window.MercadoPago(cfg.cardEntry.publicKey, { locale: 'pt-BR' })
    let token
    let method
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

  async function tokenizeCard() {
    const f = form.elements
    const res = await fetch(cfg.tokenizeUrl, {
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

  function showError(message) {
    $('erro-geral').textContent = message
    $('erro-geral').hidden = false
    $('erro-geral').focus()
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    $('erro-geral').hidden = true
    $('expirado').hidden = true
    if (!validate()) return
    const button = $('pagar')
    button.disabled = true
    button.setAttribute('aria-busy', 'true')
    try {
      const f = form.elements
      const method = selectedMethod()
      const body = {
        product_id: cfg.productId,
        plan_id: selectedPlan().id,
        name: f.name.value.trim(),
        email: f.email.value.trim(),
        cpf: f.cpf.value,
        phone: f.phone.value,
        payment_method: method,
      }
      if (session) body.session_id = session.id
      if (cfg.coupon) body.coupon_code = cfg.coupon
      if (cfg.affiliateCode) body.affiliate_code = cfg.affiliateCode
      if (method === 'card') {
        Object.assign(body, await cardFieldsOf())
        body.installments = Number(f.installments.value)
      }
      const res = await fetch('/api/checkout/create', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      const result = await res.json()
      // The countdown runs on the server's time: the Date header corrects a skewed device clock.
      const serverNow = Date.parse(res.headers.get('date'))
      skewMs = Number.isNaN(serverNow) ? 0 : serverNow - Date.now()
      if (!res.ok)
        throw new Error(
          result.error === 'Validation failed' ? 'Confira os dados do formulário.' : result.error,
        )
      const attempt = ++attempts
      if (result.status === 'paid') return follow(result.order_id, attempt)
      form.hidden = true
      if (result.pix) showPix(result, attempt)
      if (result.boleto) showBoleto(result)
      follow(result.order_id, attempt)
    } catch (error) {
      showError(error.message || 'Não foi possível concluir. Tente de novo.')
    } finally {
      button.disabled = false
      button.removeAttribute('aria-busy')
    }
  })

  // Each generated charge is an attempt; a newer one silences the timers of the older.
  let attempts = 0
  let skewMs = 0

  $('pix-copiar').addEventListener('click', async () => {
    const code = $('pix-codigo').value
    try {
      await navigator.clipboard.writeText(code)
    } catch {
      $('pix-codigo').select()
      document.execCommand('copy')
    }
    $('pix-copiar').textContent = 'Código copiado!'
    $('pix-situacao').textContent = 'Código copiado. Aguardando pagamento…'
  })

  function showPix(result, attempt) {
    $('pix').hidden = false
    $('pix-qr').src = result.pix.qr_code
    $('pix-codigo').value = result.pix.copy_paste
    $('pix-copiar').textContent = 'Copiar código'
    $('pix-situacao').textContent = 'Aguardando pagamento…'
    const expires = Date.parse(result.pix.expires_at)
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
  function showExpired(method) {
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

  function showBoleto(result) {
    $('boleto').hidden = false
    const l = result.boleto.digitable_line
    $('boleto-linha').value =
      `${l.slice(0, 5)}.${l.slice(5, 10)} ${l.slice(10, 15)}.${l.slice(15, 21)} ${l.slice(21, 26)}.${l.slice(26, 32)} ${l[32]} ${l.slice(33)}`
    $('boleto-vencimento').textContent = result.boleto.due_date.split('-').reverse().join('/')
    if (result.boleto.barcode_image) $('boleto-barras').src = result.boleto.barcode_image
    $('boleto').focus()
  }

  // The page polls the order every 2 s; the gateway callback, not this redirect, unlocks access.
  // Polling outlives the local countdown: a payment confirmed at the last second still redirects.
  function follow(orderId, attempt) {
    const poll = async () => {
      if (attempt !== attempts) return
      const res = await fetch(`/api/orders/${orderId}/status`).catch(() => null)
      const order = res?.ok ? await res.json() : null
      if (attempt !== attempts) return
      if (order && order.status === 'paid' && order.redirect_url)
        return window.location.assign(order.redirect_url)
      if (order && (order.status === 'expired' || order.status === 'failed'))
        return showExpired(selectedMethod())
      setTimeout(poll, 2000)
    }
    poll()
  }
})()
