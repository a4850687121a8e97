// POST /api/v1/members/grant: access without a purchase — a new user with a log-in link, the
// usual events, no order, refused twice while active, revocable like any access.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { followLoginLink, signupCreator } from '../../setup/actors.ts'
import { createProduct } from '../../setup/purchase.ts'
import { engine, eventually, startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

describe(`hand grants (${engine})`, () => {
  it('grants a product by hand with access.granted, once while active, and revokes it', async () => {
    const creator = await signupCreator(svc.api, 'Ateliê da Rita')
    const key = await creator.key(['write:products', 'write:members', 'read:members'])
    const product = await createProduct(svc.api, key, { name: 'Curso de Esmaltes' })
    const email = `presente-${Date.now()}@example.com`

    const res = await svc.api('POST', '/api/v1/members/grant', {
      key,
      body: { email: email.toUpperCase(), name: 'Joana Presenteada', product_id: product.id },
    })
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({ email, name: 'Joana Presenteada' })
    const [access] = res.body.data.access
    expect(access).toMatchObject({ product_id: product.id, order_id: null, status: 'active' })

    const events = await svc.deps.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('account_id', '=', creator.accountId)
      .execute()
    expect(events.map((e) => e.type).sort()).toEqual(['access.granted', 'member.enrolled'])
    expect(events.find((e) => e.type === 'access.granted')!.data).toMatchObject({
      access_id: access.id,
      order_id: null,
    })
    const mails = await eventually(async () => {
      const list = (await svc.api('GET', `/api/dev/emails?to=${email}`)).body.data
      return list.length ? list : undefined
    })
    expect(mails[0].subject).toBe('Seu acesso foi liberado: Curso de Esmaltes')
    expect(mails[0].text).toContain('Ateliê da Rita liberou para você')
    expect(mails[0].text).toMatch(/\/members\/login\?token=/)
    // The link opens the members area, where the product is.
    const link = /(http\S+\/members\/login\?token=\S+)/.exec(mails[0].text)![1]!
    const { cookie } = await followLoginLink(svc.url, link)
    const area = await fetch(`${svc.url}/members`, { headers: { cookie } })
    expect(area.status).toBe(200)
    expect(await area.text()).toContain('Curso de Esmaltes')

    const again = await svc.api('POST', '/api/v1/members/grant', {
      key,
      body: { email, product_id: product.id },
    })
    expect(again.status).toBe(409)
    expect(again.body.error).toBe('Esta pessoa já tem acesso ativo a este produto')

    const memberId = res.body.data.id
    const revoked = await svc.api(
      'POST',
      `/api/v1/members/${memberId}/access/${access.id}/revoke`,
      { key },
    )
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200)
    expect(revoked.body.data).toMatchObject({ status: 'revoked', order_id: null })
    const regrant = await svc.api('POST', '/api/v1/members/grant', {
      key,
      body: { email, product_id: product.id },
    })
    expect(regrant.status).toBe(201)
    expect(regrant.body.data.access).toHaveLength(2)
  })

  it("refuses another account's product, a bad e-mail and a key without write:members", async () => {
    const creator = await signupCreator(svc.api)
    const other = await signupCreator(svc.api)
    const key = await creator.key(['write:products', 'write:members'])
    const theirs = await createProduct(svc.api, await other.key(['write:products']))
    const foreign = await svc.api('POST', '/api/v1/members/grant', {
      key,
      body: { email: 'alguem@example.com', product_id: theirs.id },
    })
    expect(foreign.status).toBe(404)
    const mine = await createProduct(svc.api, key)
    const bad = await svc.api('POST', '/api/v1/members/grant', {
      key,
      body: { email: 'não-é-email', product_id: mine.id },
    })
    expect(bad.status).toBe(400)
    const readOnly = await creator.key(['read:members'])
    const denied = await svc.api('POST', '/api/v1/members/grant', {
      key: readOnly,
      body: { email: 'alguem@example.com', product_id: mine.id },
    })
    expect(denied.status).toBe(403)
  })
})
