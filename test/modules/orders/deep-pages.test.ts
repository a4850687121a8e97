// Orders list depth (SPEC §1): page numbers reach the first MAX_PAGED_ORDERS orders; a deeper
// page is a 400 that names `starting_after`, which pages by keyset at any depth.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_PAGED_ORDERS } from '../../../src/modules/orders/service.ts'
import { signupCreator } from '../../setup/actors.ts'
import { checkout, createProduct } from '../../setup/purchase.ts'
import { startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
let key: string
const ids: string[] = []
beforeAll(async () => {
  svc = await startTestService()
  const creator = await signupCreator(svc.api)
  key = await creator.key(['write:products', 'read:orders'])
  const product = await createProduct(svc.api, key)
  for (let i = 0; i < 3; i++) {
    const res = await checkout(svc.api, product.id)
    expect(res.status).toBe(201)
    ids.push(res.body.order_id)
  }
})
afterAll(() => svc?.stop())

const list = (query: string) => svc.api('GET', `/api/v1/orders?${query}`, { key })

describe('orders list depth', () => {
  it('answers every page up to the cap', async () => {
    const last = await list(`page=${MAX_PAGED_ORDERS / 100}&limit=100`)
    expect(last.status).toBe(200)
    expect(last.body).toMatchObject({ data: [], page: MAX_PAGED_ORDERS / 100, has_more: false })
  })

  it('refuses a page beyond the cap with a 400 that names starting_after', async () => {
    const res = await list(`page=${MAX_PAGED_ORDERS / 100 + 1}&limit=100`)
    expect(res.status).toBe(400)
    expect(res.body.error).toContain('starting_after')
    expect(res.body.details).toEqual([
      { path: 'page', message: `No máximo ${MAX_PAGED_ORDERS / 100} com limit 100` },
    ])
  })

  it('a page past the first is the same orders, whole, as the one list (filters kept)', async () => {
    const all = (await list('limit=3')).body.data
    expect(all.map((o: { id: string }) => o.id)).toEqual([ids[2], ids[1], ids[0]])
    const second = await list('limit=1&page=2')
    expect(second.body).toMatchObject({ data: [all[1]], page: 2, has_more: true })
    const third = await list('limit=1&page=3')
    expect(third.body).toMatchObject({ data: [all[2]], page: 3, has_more: false })
    expect((await list('limit=2&page=2')).body.data).toEqual([all[2]])
    expect((await list('limit=1&page=2&status=pending')).body.data).toEqual([all[1]])
    expect((await list('limit=1&page=2&status=paid')).body.data).toEqual([])
  })

  it('pages on with starting_after, whatever the page number', async () => {
    const first = await list('limit=1')
    expect(first.body.data.map((o: { id: string }) => o.id)).toEqual([ids[2]])
    const next = await list(`limit=2&page=${MAX_PAGED_ORDERS}&starting_after=${ids[2]}`)
    expect(next.status).toBe(200)
    expect(next.body.data.map((o: { id: string }) => o.id)).toEqual([ids[1], ids[0]])
  })
})
