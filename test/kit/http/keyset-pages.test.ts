// Every list pages two ways (SPEC §1): `page` (offset) and `starting_after` (keyset, fast on
// deep pages). Walking a list by cursor must give exactly the rows the pages give, in order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Creator, signupCreator } from '../../setup/actors.ts'
import { checkout, createProduct } from '../../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../../setup/service.ts'
import { webhookHarness } from '../../setup/webhooks.ts'

let svc: TestService
let creator: Creator
let key: string
let productId: string
beforeAll(async () => {
  svc = await startTestService()
  creator = await signupCreator(svc.api)
  key = await creator.key([
    'write:products',
    'read:products',
    'read:orders',
    'write:webhooks',
    'read:webhooks',
  ])
  for (let i = 0; i < 4; i++) productId = (await createProduct(svc.api, key)).id
  for (let i = 0; i < 7; i++) expect((await checkout(svc.api, productId)).status).toBe(201)
})
afterAll(() => svc?.stop())

const hooks = webhookHarness(
  () => svc,
  () => creator,
  () => key,
)
afterAll(hooks.closeReceivers)

const ids = async (path: string, query: string) => {
  const res = await svc.api('GET', `${path}?${query}`, { key })
  expect(res.status).toBe(200)
  return { ids: (res.body.data as { id: string }[]).map((r) => r.id), more: res.body.has_more }
}

async function byPages(path: string, limit: number) {
  const all: string[] = []
  for (let page = 1; ; page++) {
    const { ids: got, more } = await ids(path, `page=${page}&limit=${limit}`)
    all.push(...got)
    if (!more || all.length > 100) return all
  }
}

async function byCursor(path: string, limit: number) {
  const all: string[] = []
  let after = ''
  for (;;) {
    const { ids: got, more } = await ids(path, `limit=${limit}${after}`)
    all.push(...got)
    if (!more || all.length > 100) return all
    after = `&starting_after=${got.at(-1)}`
  }
}

describe(`list paging (${engine})`, () => {
  for (const [path, count] of [
    ['/api/v1/orders', 7],
    ['/api/v1/products', 4],
  ] as const) {
    it(`${path}: a cursor walk gives the rows the pages give, newest first`, async () => {
      const pages = await byPages(path, 3)
      expect(pages).toHaveLength(count)
      expect(await byCursor(path, 3)).toEqual(pages)
      // UUID v7 ids follow creation, so newest first is descending id order.
      expect([...pages].sort().reverse()).toEqual(pages)
    })
  }

  it('a webhook delivery log pages by cursor too', async () => {
    const r = await hooks.receiver()
    const { data } = await hooks.endpoint(r.url)
    for (let i = 0; i < 5; i++) await hooks.emit('order.paid', { order_id: `o${i}` })
    const path = `/api/v1/webhooks/${data.id}/deliveries`
    const pages = await byPages(path, 2)
    expect(pages).toHaveLength(5)
    expect(await byCursor(path, 2)).toEqual(pages)
  })

  it("another account's id is no cursor here: an empty page", async () => {
    const other = await signupCreator(svc.api, 'Outra Criadora')
    const otherKey = await other.key(['write:products'])
    const foreign = (await createProduct(svc.api, otherKey)).id
    const res = await svc.api('GET', `/api/v1/products?starting_after=${foreign}`, { key })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ data: [], has_more: false })
  })

  it('a cursor that is not a UUID is a 400', async () => {
    const res = await svc.api('GET', '/api/v1/orders?starting_after=abc', { key })
    expect(res.status).toBe(400)
  })
})
