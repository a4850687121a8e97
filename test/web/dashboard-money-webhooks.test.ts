// /dashboard/webhooks in Chromium: an endpoint created with its secret shown once (and never
// again), a test event delivered to a real receiver and shown in the log, a failed delivery
// retried by hand, the secret rotated (dismissed first: nothing changes), the endpoint turned
// off and deleted; both pages checked with axe at both widths.
import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser, screenshot } from '../setup/browser.ts'
import { startReceiver } from '../setup/receiver.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'
import { checkPageAtBothWidths, logIn, nextDialog } from './dashboard-steps.ts'

// Waits for what the page or the workers will show (not a timing assertion: the bound is generous).
const WAIT = { timeout: 30_000, interval: 100 }

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

const signedWith = (secret: string, raw: string) =>
  `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`

describe(`dashboard: webhooks (${engine})`, () => {
  it('creates an endpoint, delivers and retries test events, rotates, turns off, deletes', {
    timeout: 180_000,
  }, async () => {
    const creator = await signupCreator(svc.api, 'Ana Integradora')
    let answer = 200
    const receiver = await startReceiver(() => answer)
    const browser = await openBrowser()
    try {
      const { page } = browser
      await logIn(page, `${svc.url}/dashboard/webhooks`, creator)
      const endpoints = page.getByRole('region', { name: 'Endpoints' })
      const create = page.getByRole('region', { name: 'Novo endpoint' })
      expect(await endpoints.textContent()).toContain('Nenhum endpoint ainda')

      // Created: the secret is shown once, in the page, and is not there after a reload.
      await create.getByLabel('URL do endpoint').fill(receiver.url)
      await create.getByLabel('Pedido pago').check()
      await create.getByLabel('Pedido reembolsado').check()
      await create.getByRole('button', { name: 'Criar endpoint' }).click()
      const shown = create.getByRole('status')
      await shown.waitFor({ state: 'visible' })
      const secret = (await shown.locator('code').textContent())!
      expect(secret).toMatch(/^whsec_/)
      await page.reload()
      expect(await page.content()).not.toContain(secret)
      const item = endpoints.getByRole('listitem').filter({ hasText: receiver.url })
      expect(await item.textContent()).toContain('ativo')
      expect(await item.textContent()).toContain('Pedido pago, Pedido reembolsado')

      // The endpoint's page: a test event reaches the receiver, signed, and shows in the log.
      await item.getByRole('link').click()
      const endpoint = page.getByRole('region', { name: 'Endpoint', exact: true })
      const log = page.getByRole('region', { name: 'Registro de entregas' })
      expect(await log.textContent()).toContain('Nenhuma entrega ainda')
      await endpoint.getByRole('button', { name: 'Enviar evento de teste' }).click()
      await expect.poll(() => receiver.received.length, WAIT).toBe(1)
      const test = receiver.received[0]!
      expect(test.body.event).toBe('webhook.test')
      expect(test.headers['x-service-signature']).toBe(signedWith(secret, test.raw))
      await expect
        .poll(async () => {
          await page.reload()
          return log.textContent()
        }, WAIT)
        .toMatch(/Evento de teste.*entregue.*Tentativa 1 · HTTP 200/)

      // A receiver that fails: every attempt is logged, then one retry by hand delivers it.
      answer = 500
      await endpoint.getByRole('button', { name: 'Enviar evento de teste' }).click()
      const failed = log.getByRole('listitem').filter({ hasText: 'falhou' })
      await expect
        .poll(async () => {
          await page.reload()
          return failed.count()
        }, WAIT)
        .toBe(1)
      expect(await failed.textContent()).toContain('Tentativa 5 · HTTP 500')
      answer = 200
      await failed.getByRole('button', { name: 'Reenviar' }).click()
      await expect
        .poll(async () => {
          await page.reload()
          return log.textContent()
        }, WAIT)
        .toContain('Tentativa 6 · HTTP 200')
      expect(await failed.count()).toBe(0)
      await screenshot(page, 'dashboard-money-webhook-log')

      // Rotation: dismissed changes nothing; accepted shows a new secret once, which signs.
      const dismissed = nextDialog(page, 'dismiss')
      await endpoint.getByRole('button', { name: 'Gerar novo segredo' }).click()
      expect(await dismissed).toContain('Gerar um novo segredo?')
      expect(await endpoint.getByRole('status').isHidden()).toBe(true)
      const accepted = nextDialog(page, 'accept')
      await endpoint.getByRole('button', { name: 'Gerar novo segredo' }).click()
      await accepted
      const rotated = endpoint.getByRole('status')
      await rotated.waitFor({ state: 'visible' })
      const newSecret = (await rotated.locator('code').textContent())!
      expect(newSecret).toMatch(/^whsec_/)
      expect(newSecret).not.toBe(secret)
      const before = receiver.received.length
      await endpoint.getByRole('button', { name: 'Enviar evento de teste' }).click()
      await expect.poll(() => receiver.received.length, WAIT).toBe(before + 1)
      const signed = receiver.received.at(-1)!
      expect(signed.headers['x-service-signature']).toBe(signedWith(newSecret, signed.raw))
      await page.reload()
      expect(await page.content()).not.toContain(newSecret)

      await checkPageAtBothWidths(page.url(), creator)
      await checkPageAtBothWidths(`${svc.url}/dashboard/webhooks`, creator)

      // Turned off after a confirmation: the page says so and the API agrees.
      const off = nextDialog(page, 'accept')
      await endpoint.getByRole('button', { name: 'Desativar' }).click()
      expect(await off).toContain('Desativar este endpoint?')
      await expect.poll(() => endpoint.textContent(), WAIT).toContain('desativado por você')
      const id = page.url().split('/').at(-1)!
      const key = await creator.key(['read:webhooks'])
      const read = await svc.api('GET', `/api/v1/webhooks/${id}`, { key })
      expect(read.body.data).toMatchObject({ is_active: false, disabled_reason: 'manual' })
      await endpoint.getByRole('button', { name: 'Ativar' }).click()
      await expect.poll(() => endpoint.locator('.badge').textContent(), WAIT).toBe('ativo')

      // Deleted: dismissed first (still there), then gone, back on the list.
      const kept = nextDialog(page, 'dismiss')
      await endpoint.getByRole('button', { name: 'Excluir' }).click()
      await kept
      expect((await svc.api('GET', `/api/v1/webhooks/${id}`, { key })).status).toBe(200)
      const gone = nextDialog(page, 'accept')
      await endpoint.getByRole('button', { name: 'Excluir' }).click()
      await gone
      await page.waitForURL(`${svc.url}/dashboard/webhooks`)
      expect(await endpoints.textContent()).toContain('Nenhum endpoint ainda')
      expect((await svc.api('GET', `/api/v1/webhooks/${id}`, { key })).status).toBe(404)
    } finally {
      await browser.close('dashboard-money-webhooks')
      await receiver.close()
    }
  })

  it("answers another account's endpoint, or a malformed id, as not found", async () => {
    const owner = await signupCreator(svc.api)
    const key = await owner.key(['write:webhooks'])
    const hook = await svc.api('POST', '/api/v1/webhooks', {
      key,
      body: { url: 'http://127.0.0.1:9/hooks', events: ['order.paid'] },
    })
    expect(hook.status).toBe(201)
    const stranger = await signupCreator(svc.api)
    for (const id of [hook.body.data.id, 'nao-e-um-id']) {
      const res = await fetch(`${svc.url}/dashboard/webhooks/${id}`, {
        headers: { cookie: stranger.session.cookie },
      })
      expect(res.status).toBe(404)
      const html = await res.text()
      expect(html).toContain('Este endpoint não existe ou foi excluído')
      expect(html).not.toContain('127.0.0.1:9')
    }
  })
})
