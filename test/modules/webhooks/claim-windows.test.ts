// The claim takes from each endpoint up to its own window (concurrency.ts) minus what is in
// flight there: a widened endpoint gets more at once, the others keep the configured cap. No
// worker runs in this service; the test calls the real claim statement.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { webhooksRepo } from '../../../src/modules/webhooks/repo.ts'
import { type Creator, signupCreator } from '../../setup/actors.ts'
import { startTestService, type TestService } from '../../setup/service.ts'
import { webhookHarness } from '../../setup/webhooks.ts'

let svc: TestService
let creator: Creator
let key: string
beforeAll(async () => {
  svc = await startTestService({ ROLE: 'api' })
  creator = await signupCreator(svc.api)
  key = await creator.key(['write:webhooks', 'read:webhooks'])
})
afterAll(() => svc?.stop())
const hooks = webhookHarness(
  () => svc,
  () => creator,
  () => key,
)

describe('claim by endpoint windows', () => {
  it('a widened endpoint gets its window, the others the configured cap, in flight counted', async () => {
    const fast = (await hooks.endpoint('http://127.0.0.1:9/fast')).data.id
    const other = (await hooks.endpoint('http://127.0.0.1:9/other')).data.id
    for (let i = 0; i < 10; i++) await hooks.emit('order.paid', { order_id: `o${i}` })
    const now = new Date(Date.now() + 60_000)
    const claim = () =>
      webhooksRepo.claimDue(svc.deps.db, {
        now,
        limit: 100,
        perEndpoint: 2,
        leaseMs: 30_000,
        windows: { endpointIds: [fast], limits: [7] },
      })
    const count = (claimed: { endpoint_id: string }[], id: string) =>
      claimed.filter((d) => d.endpoint_id === id).length

    const first = await claim()
    expect([count(first, fast), count(first, other)]).toEqual([7, 2])
    // Still leased: nothing more fits in either window.
    expect(await claim()).toHaveLength(0)
  })
})
