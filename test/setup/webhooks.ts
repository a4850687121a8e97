// What webhook tests share: receivers that close after each test, endpoints made over the API,
// events emitted the way business code emits them, and the delivery log.
import { expect } from 'vitest'
import { withTx } from '../../src/kit/db.ts'
import type { EventType } from '../../src/modules/webhooks/events.ts'
import { emitEvent } from '../../src/modules/webhooks/service.ts'
import type { Creator } from './actors.ts'
import { type Answer, type Received, startReceiver } from './receiver.ts'
import type { TestService } from './service.ts'

export interface DeliveryLog {
  id: string
  event_id: string
  event: string
  status: string
  attempts: {
    attempt: number
    status_code: number | null
    error: string | null
    response_body: string | null
    created_at: string
  }[]
}

export function webhookHarness(svc: () => TestService, creator: () => Creator, key: () => string) {
  const open: Awaited<ReturnType<typeof startReceiver>>[] = []
  return {
    async receiver(answer?: (req: Received) => Answer) {
      const r = await startReceiver(answer)
      open.push(r)
      return r
    },
    closeReceivers: () => Promise.all(open.splice(0).map((r) => r.close())),
    async endpoint(url: string, events: EventType[] = ['order.paid']) {
      const res = await svc().api('POST', '/api/v1/webhooks', { key: key(), body: { url, events } })
      expect(res.status).toBe(201)
      return res.body as { data: { id: string }; secret: string }
    },
    emit: (type: EventType, data: Record<string, unknown> = { order_id: 'o1' }) =>
      withTx(svc().deps.db, (tx) =>
        emitEvent(tx, svc().deps, { accountId: creator().accountId, type, data }),
      ),
    /** One pass of the delivery worker, resolved once what it claimed is sent and recorded. */
    pass: () => svc().workers!.runOnce('webhooks.deliver'),
    async deliveries(endpointId: string) {
      const res = await svc().api('GET', `/api/v1/webhooks/${endpointId}/deliveries`, {
        key: key(),
      })
      expect(res.status).toBe(200)
      return res.body.data as DeliveryLog[]
    },
  }
}
