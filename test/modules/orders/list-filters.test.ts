// The orders list's filters (SPEC §5) cut the same orders on every form of page: page 1, a page
// past it by offset and a page after a `starting_after` cursor. Each form and set of filters
// is a statement compiled once (orders/repo.ts `listStatement`): this holds each to the rows
// the whole list, filtered here, says it should give.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../../setup/actors.ts'
import { checkout, createProduct, pay } from '../../setup/purchase.ts'
import { startTestService, type TestService } from '../../setup/service.ts'

interface Order {
  id: string
  status: string
  payment_method: string
  product_id: string
  buyer_email: string
  created_at: string
}

let svc: TestService
let key: string
let everyOrder: Order[]
const repeatEmail = 'repete@example.com'
beforeAll(async () => {
  svc = await startTestService()
  const creator = await signupCreator(svc.api)
  key = await creator.key(['write:products', 'read:orders'])
  const methods = { payment_methods: ['pix', 'boleto'] }
  const a = await createProduct(svc.api, key, methods)
  const b = await createProduct(svc.api, key, methods)
  const made: [string, Record<string, unknown>, boolean][] = [
    [a.id, {}, true],
    [a.id, { payment_method: 'boleto' }, false],
    [b.id, {}, false],
    [a.id, { email: repeatEmail }, false],
    [b.id, { payment_method: 'boleto' }, true],
    [a.id, { email: repeatEmail }, true],
    [a.id, {}, true],
  ]
  for (const [product, overrides, paid] of made) {
    const res = await checkout(svc.api, product, overrides)
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    if (paid) expect((await pay(svc.api, res.body.charge_id)).status).toBe(200)
  }
  everyOrder = (await list('limit=100')).body.data
  expect(everyOrder).toHaveLength(made.length)
})
afterAll(() => svc?.stop())

const list = (query: string) => svc.api('GET', `/api/v1/orders?${query}`, { key })
const ids = (orders: Order[]) => orders.map((o) => o.id)

describe('orders list filters', () => {
  it('cut the same orders on page 1, past it by offset and after a cursor, alone and together', async () => {
    const middle = everyOrder[3]!
    const filters: Record<string, [string, (o: Order) => boolean]> = {
      status: ['paid', (o) => o.status === 'paid'],
      payment_method: ['pix', (o) => o.payment_method === 'pix'],
      product_id: [middle.product_id, (o) => o.product_id === middle.product_id],
      buyer_email: [repeatEmail.toUpperCase(), (o) => o.buyer_email === repeatEmail],
      created_from: [middle.created_at, (o) => o.created_at >= middle.created_at],
      created_to: [everyOrder[0]!.created_at, (o) => o.created_at < everyOrder[0]!.created_at],
    }
    const sets = [[], ...Object.keys(filters).map((name) => [name]), Object.keys(filters)]
    for (const set of sets) {
      const query = set.map((name) => `${name}=${encodeURIComponent(filters[name]![0])}`)
      const expected = everyOrder.filter((o) => set.every((name) => filters[name]![1](o)))
      const label = set.join(' + ') || 'no filter'
      const first = await list([...query, 'limit=100'].join('&'))
      expect(ids(first.body.data), label).toEqual(ids(expected))
      const second = await list([...query, 'limit=1', 'page=2'].join('&'))
      expect(ids(second.body.data), `${label}, page 2`).toEqual(ids(expected.slice(1, 2)))
      expect(second.body.has_more, `${label}, page 2`).toBe(expected.length > 2)
      if (!expected.length) continue
      const after = await list([...query, `starting_after=${expected[0]!.id}`].join('&'))
      expect(ids(after.body.data), `${label}, after a cursor`).toEqual(ids(expected.slice(1)))
    }
    // Together, the filters leave exactly the one paid order of the repeated buyer that was
    // made before the first: so each of them cut, none was dropped.
    expect(everyOrder.filter((o) => Object.values(filters).every(([, keep]) => keep(o)))).toEqual([
      expect.objectContaining({ buyer_email: repeatEmail, status: 'paid' }),
    ])
  })
})
