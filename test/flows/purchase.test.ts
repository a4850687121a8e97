import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { checkout, createProduct, pay } from '../setup/purchase.ts'
import { startReceiver } from '../setup/receiver.ts'
import { engine, eventually, startTestService, type TestService } from '../setup/service.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

describe(`the first paid order, end to end (${engine})`, () => {
  it('sign-up → key → product → webhook → PIX checkout → sandbox pay → paid, access, events, e-mails', async () => {
    const { api } = svc
    const creator = await signupCreator(api)
    const key = await creator.key([
      'write:products',
      'read:orders',
      'read:members',
      'write:webhooks',
    ])
    const product = await createProduct(api, key, {
      name: 'Fotografia',
      delivery_url: 'https://example.com/aulas',
    })
    expect(product.plans[0].price).toBe(97.9)

    const receiver = await startReceiver()
    const hook = await api('POST', '/api/v1/webhooks', {
      key,
      body: { url: receiver.url, events: ['order.paid', 'member.enrolled', 'access.granted'] },
    })
    expect(hook.status).toBe(201)
    const secret: string = hook.body.secret

    const created = await checkout(api, product.id, { email: 'Bia@Example.com' })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      status: 'pending',
      amount: 97.9,
      currency: 'BRL',
      payment_method: 'pix',
    })
    expect(created.body.pix.copy_paste).toMatch(/^000201.*6304[0-9A-F]{4}$/)
    expect(created.body.pix.qr_code).toMatch(/^data:image\/png;base64,/)
    expect(created.body.boleto).toBeNull()
    const orderId: string = created.body.order_id

    const before = await api('GET', `/api/orders/${orderId}/status`)
    expect(before.body).toMatchObject({
      id: orderId,
      status: 'pending',
      paid_at: null,
      redirect_url: null,
    })

    const paid = await pay(api, created.body.charge_id)
    expect(paid.status).toBe(200)
    expect(paid.body).toEqual({
      charge_id: created.body.charge_id,
      order_id: orderId,
      callback_status: 200,
    })

    const after = await api('GET', `/api/orders/${orderId}/status`)
    expect(after.body.status).toBe('paid')
    expect(after.body.redirect_url).toContain(`/checkout/${product.slug}/success`)

    const order = await api('GET', `/api/v1/orders/${orderId}`, { key })
    expect(order.body.data).toMatchObject({
      id: orderId,
      status: 'paid',
      amount: 97.9,
      buyer_email: 'bia@example.com',
      product_id: product.id,
    })

    const members = await api('GET', '/api/v1/members', { key })
    expect(members.body.data).toHaveLength(1)
    expect(members.body.data[0]).toMatchObject({
      email: 'bia@example.com',
      name: 'Beatriz Compradora',
    })
    expect(members.body.data[0].access).toMatchObject([
      { product_id: product.id, order_id: orderId, status: 'active' },
    ])

    await eventually(async () => receiver.received.length >= 3)
    const events = receiver.received.map((r) => r.body.event).sort()
    expect(events).toEqual(['access.granted', 'member.enrolled', 'order.paid'])
    for (const delivery of receiver.received) {
      const expected = `sha256=${createHmac('sha256', secret).update(delivery.raw).digest('hex')}`
      expect(delivery.headers['x-service-signature']).toBe(expected)
    }
    const orderPaid = receiver.received.find((r) => r.body.event === 'order.paid')!
    expect(orderPaid.body.data).toMatchObject({
      order_id: orderId,
      amount: 97.9,
      buyer_email: 'bia@example.com',
    })

    const mails = await eventually(async () => {
      const res = await api('GET', '/api/dev/emails?to=bia@example.com')
      return res.body.data.length >= 2 ? res.body.data : null
    })
    const subjects = mails.map((m: { subject: string }) => m.subject).join(' | ')
    expect(subjects).toMatch(/Fotografia/)
    await receiver.close()
  })

  it('a PIX order with a tampered callback stays pending (401)', async () => {
    const creator = await signupCreator(svc.api)
    const key = await creator.key(['write:products', 'read:orders'])
    const product = await createProduct(svc.api, key)
    const created = await checkout(svc.api, product.id)
    const body = JSON.stringify({
      id: 'evt_x',
      type: 'charge.paid',
      charge_id: created.body.charge_id,
      amount_cents: 9790,
    })
    const res = await fetch(`${svc.url}/api/payments/callback/sandbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-signature': 'sha256=00' },
      body,
    })
    expect(res.status).toBe(401)
    const status = await svc.api('GET', `/api/orders/${created.body.order_id}/status`)
    expect(status.body.status).toBe('pending')
  })
})
