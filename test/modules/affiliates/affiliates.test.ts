import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Creator, followLoginLink, signupCreator } from '../../setup/actors.ts'
import { checkout, createProduct, pay } from '../../setup/purchase.ts'
import { engine, eventually, startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
let creator: Creator
let key: string
beforeAll(async () => {
  svc = await startTestService()
  creator = await signupCreator(svc.api, 'Ana Produtora')
  key = await creator.key(['write:products', 'read:products', 'read:orders', 'read:payouts'])
})
afterAll(() => svc?.stop())

const emailsTo = async (to: string) =>
  (await svc.api('GET', `/api/dev/emails?to=${to}`)).body.data as {
    subject: string
    text: string
    html: string
  }[]

async function enroll(productId: string, email: string, percent: number) {
  return svc.api('POST', `/api/v1/products/${productId}/affiliates`, {
    key,
    body: { email, commission_percent: percent },
  })
}

async function loginAs(email: string) {
  const [mail] = await emailsTo(email)
  const link = /(http\S+\/members\/login\?token=\S+)/.exec(mail!.text)![1]!
  return followLoginLink(svc.url, link)
}

describe(`affiliates: enrolment (${engine})`, () => {
  it('invites an unknown e-mail, gives a unique code and a referral link; messages word for word', async () => {
    const product = await createProduct(svc.api, key, { name: 'Curso de Pão' })
    const res = await enroll(product.id, 'Afiliada.Nova@Example.com', 12.5)
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({
      user_id: expect.any(String),
      commission_percent: 12.5,
      product_id: product.id,
      email: 'afiliada.nova@example.com',
    })
    const { code } = res.body.data
    expect(code).toMatch(/^[a-z2-9]{8}$/)
    expect(res.body.data.referral_url).toBe(`${product.checkout_url}?ref=${code}`)

    const [mail] = await emailsTo('afiliada.nova@example.com')
    expect(mail!.subject).toBe('Convite: seja afiliado(a) de Curso de Pão')
    expect(mail!.text).toContain(
      'Ana Produtora convidou você para ser afiliado(a) de "Curso de Pão"',
    )
    expect(mail!.html).toContain('Ativar meu acesso')
    const session = await loginAs('afiliada.nova@example.com')
    const me = await svc.api('GET', '/api/me', { session })
    expect(me.body.user.id).toBe(res.body.data.user_id)

    const again = await enroll(product.id, 'afiliada.nova@example.com', 20)
    expect(again.status).toBe(409)
    expect(again.body).toEqual({ error: 'Este afiliado já está cadastrado neste produto' })
    const other = await enroll(product.id, 'outra@example.com', 10)
    expect(other.body.data.code).not.toBe(code)

    for (const bad of [0, 100.01, 10.123, -5]) {
      const res = await enroll(product.id, 'x@example.com', bad)
      expect(res.status).toBe(400)
      expect(res.body.details[0].message).toBe(
        'Percentual inválido: use de 0,01 a 100, com até duas casas decimais',
      )
    }

    const list = await svc.api('GET', `/api/v1/products/${product.id}/affiliates`, { key })
    expect(list.body).toMatchObject({ page: 1, limit: 50, has_more: false })
    expect(list.body.data.map((a: { code: string }) => a.code)).toEqual([
      other.body.data.code,
      code,
    ])

    const patched = await svc.api(
      'PATCH',
      `/api/v1/products/${product.id}/affiliates/${res.body.data.id}`,
      { key, body: { commission_percent: 30 } },
    )
    expect(patched.status).toBe(200)
    expect(patched.body.data).toMatchObject({ code, commission_percent: 30 })
    const missing = await svc.api(
      'PATCH',
      `/api/v1/products/${product.id}/affiliates/${crypto.randomUUID()}`,
      { key, body: { commission_percent: 30 } },
    )
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ error: 'Afiliado não encontrado' })
  })

  it("needs write:products / read:products and the product's own account", async () => {
    const product = await createProduct(svc.api, key)
    const readOnly = await creator.key(['read:products'])
    const denied = await svc.api('POST', `/api/v1/products/${product.id}/affiliates`, {
      key: readOnly,
      body: { email: 'a@example.com', commission_percent: 10 },
    })
    expect(denied.status).toBe(403)
    expect(denied.body.error).toBe('Missing scope: write:products')
    const stranger = await signupCreator(svc.api)
    const strangerKey = await stranger.key(['write:products', 'read:products'])
    for (const path of ['affiliates', 'coproducers']) {
      const post = await svc.api('POST', `/api/v1/products/${product.id}/${path}`, {
        key: strangerKey,
        body: { email: 'a@example.com', commission_percent: 10, split_percent: 10 },
      })
      expect(post.status).toBe(404)
      expect(post.body).toEqual({ error: 'Produto não encontrado' })
      const get = await svc.api('GET', `/api/v1/products/${product.id}/${path}`, {
        key: strangerKey,
      })
      expect(get.status).toBe(404)
    }
  })
})

describe(`affiliates: commissions on orders (${engine})`, () => {
  it('snapshots the % at checkout, pays it with the order, and a later % change touches no existing order', async () => {
    const product = await createProduct(svc.api, key, { plans: [{ name: 'Único', price: 200 }] })
    const enrolled = await enroll(product.id, 'bruno.afiliado@example.com', 10)
    const { id: affiliateId, code, user_id: affiliateUser } = enrolled.body.data
    const affiliate = await loginAs('bruno.afiliado@example.com')
    const affiliateBalance = async () =>
      (await svc.api('GET', '/api/affiliates/balance', { session: affiliate })).body

    const first = await checkout(svc.api, product.id, { affiliate_code: code.toUpperCase() })
    expect(await affiliateBalance()).toMatchObject({ pending_count: 1, paid_total: 0 })
    await svc.api('PATCH', `/api/v1/products/${product.id}/affiliates/${affiliateId}`, {
      key,
      body: { commission_percent: 50 },
    })
    await pay(svc.api, first.body.charge_id)
    const order = await svc.api('GET', `/api/v1/orders/${first.body.order_id}`, { key })
    expect(order.body.data).toMatchObject({ affiliate_id: affiliateId, affiliate_commission: 20 })

    const second = await checkout(svc.api, product.id, { affiliate_code: code })
    await pay(svc.api, second.body.charge_id)
    const later = await svc.api('GET', `/api/v1/orders/${second.body.order_id}`, { key })
    expect(later.body.data.affiliate_commission).toBe(100)

    expect(await affiliateBalance()).toEqual({
      available: 120,
      paid_total: 120,
      rejected_total: 0,
      pending_count: 0,
      withdrawn: 0,
    })
    const balance = await svc.api('GET', '/api/balance', { key })
    expect(balance.body).toMatchObject({
      paid_total: 400,
      affiliate_owed: 120,
      coproducer_owed: 0,
      available: 280,
    })
    const events = await svc.deps.db
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'affiliate.commission_earned')
      .execute()
    const mine = events
      .map((e) => e.data as Record<string, unknown>)
      .filter((d) => d.affiliate_id === affiliateId)
      .sort((a, b) => Number(a.commission_amount) - Number(b.commission_amount))
    expect(mine).toEqual([
      {
        affiliate_id: affiliateId,
        order_id: first.body.order_id,
        product_id: product.id,
        commission_amount: 20,
        affiliate_user_id: affiliateUser,
        commission_percent: 10,
      },
      expect.objectContaining({ order_id: second.body.order_id, commission_amount: 100 }),
    ])
  })

  it('an unpaid order keeps the commission pending; expired, it is canceled and counted nowhere', async () => {
    const product = await createProduct(svc.api, key, { plans: [{ name: 'Único', price: 50 }] })
    const { code } = (await enroll(product.id, 'carla.afiliada@example.com', 20)).body.data
    const affiliate = await loginAs('carla.afiliada@example.com')
    const pending = await checkout(svc.api, product.id, { affiliate_code: code })
    const balance = () => svc.api('GET', '/api/affiliates/balance', { session: affiliate })
    expect((await balance()).body).toMatchObject({ pending_count: 1, available: 0 })
    await svc.api('POST', '/sandbox/clock/advance', { body: { seconds: 31 * 60 } })
    svc.workers?.kick()
    await eventually(async () => {
      const status = await svc.api('GET', `/api/orders/${pending.body.order_id}/status`)
      return status.body.status === 'expired'
    })
    expect((await balance()).body).toEqual({
      available: 0,
      paid_total: 0,
      rejected_total: 0,
      pending_count: 0,
      withdrawn: 0,
    })
  })

  it('unknown codes and buying through your own link credit no one', async () => {
    const product = await createProduct(svc.api, key)
    const { code } = (await enroll(product.id, 'dora.afiliada@example.com', 10)).body.data
    const unknown = await checkout(svc.api, product.id, { affiliate_code: 'naoexiste' })
    expect(unknown.status).toBe(201)
    const self = await checkout(svc.api, product.id, {
      affiliate_code: code,
      email: 'dora.afiliada@example.com',
    })
    for (const created of [unknown, self]) {
      await pay(svc.api, created.body.charge_id)
      const order = await svc.api('GET', `/api/v1/orders/${created.body.order_id}`, { key })
      expect(order.body.data).toMatchObject({
        status: 'paid',
        affiliate_id: null,
        affiliate_commission: null,
      })
    }
  })
})
