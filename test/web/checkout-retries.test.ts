// The hosted checkout when the network or the service falters (web/checkout/browser/send-order.ts):
// an answer lost on its way to the buyer never becomes a second charge, and a service shedding
// load is waited out by the page itself. Mercado Pago's fake over real HTTP plays the gateway,
// MercadoPago.js tokenizes the card in the page, and the service sheds for real
// (HTTP_MAX_IN_FLIGHT=2, two checkouts held at the gateway).
import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { OVERLOADED_MESSAGE } from '../../src/kit/http/load-shedding.ts'
import { NO_ANSWER } from '../../src/web/checkout/browser/send-order.ts'
import { type FakeMercadoPago, startFakeMercadoPago } from '../fakes/mercadopago.ts'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser, screenshotName } from '../setup/browser.ts'
import { mercadoPagoEnv } from '../setup/gateway-env.ts'
import { checkout, createProduct } from '../setup/purchase.ts'
import { engine, eventually, startTestService, type TestService } from '../setup/service.ts'
import { fillBuyer, fillMercadoPagoCard } from './checkout-fixtures.ts'

let svc: TestService
let mp: FakeMercadoPago
let browser: Awaited<ReturnType<typeof openBrowser>>
let product: { id: string; slug: string }

beforeAll(async () => {
  mp = await startFakeMercadoPago({ now: () => (svc ? svc.deps.clock.now() : new Date()) })
  svc = await startTestService({ ...mercadoPagoEnv(mp), HTTP_MAX_IN_FLIGHT: '2' })
  const key = await (await signupCreator(svc.api)).key(['write:products'])
  product = await createProduct(svc.api, key, {
    name: 'Curso de Fotografia',
    plans: [{ name: 'Vitalício', price: 250 }],
    payment_methods: ['pix', 'card'],
  })
})
afterAll(async () => {
  mp?.releaseAnswers()
  await svc?.stop()
  await mp?.close()
})
beforeEach(async () => {
  browser = await openBrowser()
})
afterEach(({ task }) => browser?.close(`final-${screenshotName(task.name)}`))

/** The page's orders as the service keeps them, and the charges the gateway was asked for. */
const ordersOf = (email: string) =>
  svc.deps.db
    .selectFrom('orders')
    .select(['id', 'status'])
    .where('buyer_email', '=', email)
    .execute()
const paymentsAsked = () =>
  mp.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payments').length

/** Every order the page sends, with the Idempotency-Key it carried. */
function orderRequests(page: Page) {
  const keys: string[] = []
  page.on('request', (r) => {
    if (r.url().endsWith('/api/checkout/create')) keys.push(r.headers()['idempotency-key'] ?? '')
  })
  return keys
}

/**
 * Two checkouts waiting on a gateway that does not answer yet: the service (HTTP_MAX_IN_FLIGHT=2)
 * is full until `release`, which lets the gateway answer them and gives their answers.
 */
async function fillTheService() {
  mp.holdAnswers()
  const held = Promise.all([checkout(svc.api, product.id), checkout(svc.api, product.id)])
  await eventually(async () => mp.held() === 2)
  return {
    release: () => {
      mp.releaseAnswers()
      return held
    },
  }
}

/** The page filled in to pay by card; the keys of the orders it sends from then on. */
async function payingByCard(page: Page, email: string, holder: string) {
  await page.goto(`${svc.url}/checkout/${product.slug}`)
  await fillBuyer(page, email)
  await fillMercadoPagoCard(page, holder)
  return orderRequests(page)
}

/**
 * Pays by card and loses the answer: the order reaches the service (`arrives`) and its answer
 * dies on the way back, or the connection drops before it gets there.
 */
async function payAndLoseTheAnswer(page: Page, arrives: boolean) {
  await page.route(
    '**/api/checkout/create',
    async (route) => {
      if (arrives) await route.fetch()
      await route.abort('connectionreset')
    },
    { times: 1 },
  )
  await page.getByRole('button', { name: 'Pagar com cartão' }).click()
  await expect.poll(() => page.getByRole('alert').textContent()).toBe(NO_ANSWER)
}

describe(`hosted checkout retries (${engine})`, () => {
  it('a card charged but whose answer was lost is not charged again when the buyer pays again', async () => {
    const { page } = browser
    const email = 'carla.sem.resposta@example.com'
    // Her checkout session opens only between her two clicks (she paid within the page's 600 ms
    // pause after typing, or its request was slow): the page's bookkeeping changed, not her
    // purchase, which must stay one attempt.
    let openSession = () => {}
    const sessionHeld = new Promise<void>((resolve) => {
      openSession = resolve
    })
    await page.route('**/api/checkout/sessions', async (route) => {
      await sessionHeld
      await route.continue()
    })
    const keys = await payingByCard(page, email, 'APRO')
    // The first order reaches the service and is paid; its answer dies on the way back.
    await payAndLoseTheAnswer(page, true)
    expect(await ordersOf(email)).toMatchObject([{ status: 'paid' }])
    const charged = paymentsAsked()
    // The session opens (the page asked for it once, or again at a later pause while waiting).
    const opened = page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().endsWith('/api/checkout/sessions'),
    )
    openSession()
    await (await opened).finished()

    await page.getByRole('button', { name: 'Pagar com cartão' }).click()
    await page.waitForURL(/\/success\?order_id=/, { timeout: 10_000 })
    const [order] = await ordersOf(email)
    expect(page.url()).toContain(order!.id)
    expect(await ordersOf(email)).toHaveLength(1)
    expect(paymentsAsked()).toBe(charged)
    expect(keys).toHaveLength(2)
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/)
    expect(keys[1]).toBe(keys[0])
  })

  it('a buyer who reloads the page after a lost answer is shown what her order became, not charged again', async () => {
    const { page } = browser
    const email = 'carla.recarregou@example.com'
    const keys = await payingByCard(page, email, 'APRO')
    await payAndLoseTheAnswer(page, true)
    const charged = paymentsAsked()

    const asked = page.waitForResponse((r) => r.url().includes('/api/checkout/attempts/'))
    await page.reload()
    const answer = await asked
    expect(answer.url()).toContain(keys[0]!)
    expect(answer.status()).toBe(201)
    await page.waitForURL(/\/success\?order_id=/, { timeout: 10_000 })
    const orders = await ordersOf(email)
    expect(orders).toMatchObject([{ status: 'paid' }])
    expect(page.url()).toContain(orders[0]!.id)
    expect(paymentsAsked()).toBe(charged)
    expect(keys).toHaveLength(1)
  })

  it('after a reload, an order that never reached the service leaves the form as it was', async () => {
    const { page } = browser
    const email = 'carla.nao.chegou@example.com'
    await payingByCard(page, email, 'APRO')
    await payAndLoseTheAnswer(page, false)

    const asked = page.waitForResponse((r) => r.url().includes('/api/checkout/attempts/'))
    await page.reload()
    expect((await asked).status()).toBe(404)
    await expect.poll(() => page.locator('#pagar').isVisible()).toBe(true)
    expect(await page.locator('#erro-geral').isHidden()).toBe(true)
    // Forgotten: a second reload asks nothing.
    const askedAgain: string[] = []
    page.on('request', (r) => {
      if (r.url().includes('/api/checkout/attempts/')) askedAgain.push(r.url())
    })
    await page.reload()
    await page.waitForLoadState('networkidle')
    expect(askedAgain).toEqual([])
    expect(await ordersOf(email)).toEqual([])
  })

  it('a changed card after a lost answer is a new attempt with a new key', async () => {
    const { page } = browser
    const email = 'carla.outro.cartao@example.com'
    const keys = await payingByCard(page, email, 'OTHE')
    await payAndLoseTheAnswer(page, false)
    await page.getByLabel('Nome impresso no cartão').fill('APRO')
    await page.getByRole('button', { name: 'Pagar com cartão' }).click()
    await page.waitForURL(/\/success\?order_id=/, { timeout: 10_000 })
    expect(keys).toHaveLength(2)
    expect(keys[1]).not.toBe(keys[0])
  })

  it('waits out a service shedding load and sends the same order again by itself', async () => {
    const { page } = browser
    const email = 'carla.na.fila@example.com'
    await page.goto(`${svc.url}/checkout/${product.slug}`)
    await fillBuyer(page, email)
    const keys = orderRequests(page)
    const statuses: number[] = []
    page.on('response', (r) => {
      if (r.url().endsWith('/api/checkout/create')) statuses.push(r.status())
    })
    const held = await fillTheService()

    await page.getByRole('button', { name: 'Gerar PIX' }).click()
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Tentando de novo' }).count())
      .toBe(1)
    expect(statuses[0]).toBe(503)
    expect(await page.getByRole('alert').isHidden()).toBe(true)
    expect(await page.locator('#pagar').getAttribute('aria-busy')).toBe('true')

    expect((await held.release()).map((r) => r.status)).toEqual([201, 201])
    await page.locator('#pix').waitFor({ state: 'visible', timeout: 10_000 })
    expect(statuses.at(-1)).toBe(201)
    expect(new Set(keys).size).toBe(1)
    expect(await ordersOf(email)).toHaveLength(1)
    expect(await page.locator('#aguarde').textContent()).toBe('')
  })

  it('a checkout page turned away loads itself again once there is room', async () => {
    const { page } = browser
    const held = await fillTheService()
    const turnedAway = await page.goto(`${svc.url}/checkout/${product.slug}`)
    expect(turnedAway?.status()).toBe(503)
    expect(await page.locator('h1').textContent()).toBe('Muita gente comprando agora')
    await held.release()
    await expect
      .poll(() => page.locator('h1').textContent(), { timeout: 10_000 })
      .toBe('Curso de Fotografia')
  })

  // The page's two tries take 5–7 s, inside the adapter's 10 s wait on the held gateway
  // (MP_TIMEOUT_MS), after which the held checkouts fail and the service has room again.
  it("says the service is busy when it still is after the page's own tries", async () => {
    const { page } = browser
    await page.goto(`${svc.url}/checkout/${product.slug}`)
    await fillBuyer(page, 'carla.desistiu@example.com')
    const held = await fillTheService()
    await page.getByRole('button', { name: 'Gerar PIX' }).click()
    await expect
      .poll(() => page.getByRole('alert').textContent(), { timeout: 15_000 })
      .toBe(OVERLOADED_MESSAGE)
    expect(await page.locator('#pagar').isDisabled()).toBe(false)
    await held.release()
  })
})
