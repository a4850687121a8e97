// The renewal e-mail carries the same signed member link as the payment e-mail: it names the
// buyer and the renewal order, and its button's POST logs the buyer in (once).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runDueRenewals } from '../../../src/modules/subscriptions/renewals.ts'
import { followLoginLink } from '../../setup/actors.ts'
import { engine, startTestService, type TestService } from '../../setup/service.ts'
import {
  DAY,
  NOTICE_DAYS,
  openShop,
  type Shop,
  SUBSCRIPTION_ENV,
} from '../subscriptions/fixtures.ts'

let svc: TestService
let shop: Shop
beforeAll(async () => {
  svc = await startTestService({ ROLE: 'api', ...SUBSCRIPTION_ENV })
  shop = await openShop(svc, { name: 'Clube do Café', price: 39.9 })
})
afterAll(() => svc?.stop())

describe(`renewal e-mail link (${engine})`, () => {
  it('logs the buyer into the members area, where the subscription shows', async () => {
    const email = 'renova-cafe@example.com'
    const { sub } = await shop.subscribe({ email })
    const end = Date.parse(sub.current_period_end)
    await svc.deps.clock.advance(end - NOTICE_DAYS * DAY + 60_000 - svc.deps.clock.now().getTime())
    await runDueRenewals(svc.deps)
    const mails = (await svc.api('GET', `/api/dev/emails?to=${email}`)).body.data as {
      subject: string
      text: string
    }[]
    const renewal = mails.find((m) => m.subject.startsWith('Renovação da sua assinatura'))!
    const link = /(http\S+\/members\/login\?token=m1\.\S+)/.exec(renewal.text)![1]!
    const session = await followLoginLink(svc.url, link)
    const mine = await svc.api('GET', '/api/me/subscriptions', { session })
    expect(mine.body.data).toMatchObject([{ id: sub.id, product_name: 'Clube do Café' }])
    await expect(followLoginLink(svc.url, link)).rejects.toThrow(/410/)
  })
})
