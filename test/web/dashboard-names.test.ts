// The sales pages name every product and plan of the account, not only the newest hundred: a
// sale of the account's oldest product, with 100 newer ones, still shows its name and plan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { paidSale } from '../setup/ledger.ts'
import { createProduct } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

describe(`product names on the sales pages (${engine})`, () => {
  it("names a sale's product and a subscription's plan beyond the newest 100 products", async () => {
    const creator = await signupCreator(svc.api)
    const key = await creator.key(['write:products'])
    const oldest = await createProduct(svc.api, key, {
      name: 'Primeiro Curso',
      billing: 'recurring',
      plans: [{ name: 'Plano Pioneiro', price: 40, interval: 'month' }],
    })
    await paidSale(svc, creator, { key, productId: oldest.id })
    for (let i = 0; i < 100; i++) await createProduct(svc.api, key, { name: `Curso ${i}` })

    const page = async (path: string) =>
      (await fetch(`${svc.url}${path}`, { headers: { cookie: creator.session.cookie } })).text()
    for (const path of ['/dashboard', '/dashboard/pedidos', '/dashboard/membros']) {
      const html = await page(path)
      expect(html, path).toContain('Primeiro Curso')
      expect(html, path).not.toContain('produto removido')
    }
    const subscriptions = await page('/dashboard/assinaturas')
    expect(subscriptions).toContain('<strong>Primeiro Curso</strong> · Plano Pioneiro')
  }, 120_000)
})
