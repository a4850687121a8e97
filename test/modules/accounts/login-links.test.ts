// One-time log-in links (SPEC §12): opening one spends nothing, the page's POST spends it once;
// a person can ask for a fresh one by e-mail; tokens never reach the logs. And a password change
// ends the user's other sessions (SPEC §15).
import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../../src/app.ts'
import { sessionCookieFrom, signupCreator } from '../../setup/actors.ts'
import { checkout, createProduct } from '../../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
let productId: string
beforeAll(async () => {
  svc = await startTestService()
  productId = (
    await createProduct(svc.api, await (await signupCreator(svc.api)).key(['write:products']))
  ).id
})
afterAll(() => svc?.stop())

const linkIn = (text: string) => {
  const link = /(http\S+\/members\/login\?token=\S+)/.exec(text)![1]!
  return new URL(link.replace(/^http:\/\/localhost:\d+/, svc.url))
}
const mailsTo = async (email: string) =>
  (await svc.api('GET', `/api/dev/emails?to=${email}`)).body.data as {
    subject: string
    text: string
  }[]

/** A new buyer's access e-mail link (the checkout mails it). */
async function accessLink() {
  const order = await checkout(svc.api, productId)
  expect(order.status).toBe(201)
  const buyer = (
    await svc.deps.db
      .selectFrom('orders')
      .select('buyer_email')
      .where('id', '=', order.body.order_id)
      .executeTakeFirstOrThrow()
  ).buyer_email
  const [mail] = await mailsTo(buyer)
  return { email: buyer, link: linkIn(mail!.text) }
}

const spend = (token: string) =>
  fetch(`${svc.url}/members/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, next: '/members' }),
    redirect: 'manual',
  })

describe(`one-time log-in links (${engine})`, () => {
  it('opening the link twice spends nothing; the POST spends it once and logs in', async () => {
    const { email, link } = await accessLink()
    const token = link.searchParams.get('token')!
    for (let i = 0; i < 2; i++) {
      const opened = await fetch(link)
      expect(opened.status).toBe(200)
      expect(opened.headers.get('cache-control')).toBe('no-store')
      expect(opened.headers.getSetCookie()).toEqual([])
      const page = await opened.text()
      expect(page).toContain('Entrar na área de membros')
      expect(page).toContain('<form method="post" action="/members/login"')
      expect(page).not.toContain('.submit()')
    }

    const first = await spend(token)
    expect(first.status).toBe(303)
    expect(first.headers.get('location')).toBe('/members')
    const me = await svc.api('GET', '/api/me', {
      session: { cookie: sessionCookieFrom(first.headers), csrf: '' },
    })
    expect(me.body.user.email).toBe(email)

    const second = await spend(token)
    expect(second.status).toBe(410)
    expect(second.headers.getSetCookie()).toEqual([])
    const expired = await second.text()
    expect(expired).toContain('Link expirado')
    expect(expired).toContain('Receber link de acesso')
    expect((await fetch(link)).status).toBe(410)
  })

  it('a returning buyer gets no second access e-mail and no second link', async () => {
    const { email } = await accessLink()
    expect((await checkout(svc.api, productId, { email })).status).toBe(201)
    expect(await mailsTo(email)).toHaveLength(1)
    const links = await svc.deps.db
      .selectFrom('login_links')
      .innerJoin('users', 'users.id', 'login_links.user_id')
      .select('login_links.token_hash')
      .where('users.email', '=', email)
      .execute()
    expect(links).toHaveLength(1)
  })

  it('asking for a link: a fresh one is mailed when the e-mail has a user, the same 202 when not', async () => {
    const ask = (email: string) => svc.api('POST', '/api/auth/login-link', { body: { email } })
    const { email } = await accessLink()
    expect(await ask(email.toUpperCase())).toMatchObject({ status: 202, body: { accepted: true } })
    const [mail] = await mailsTo(email)
    expect(mail!.subject).toBe('Seu link de acesso à área de membros')
    expect(mail!.text).toContain('vale por 1 hora')
    const spent = await spend(linkIn(mail!.text).searchParams.get('token')!)
    expect(spent.status).toBe(303)

    const nobody = 'ninguem-aqui@example.com'
    expect(await ask(nobody)).toMatchObject({ status: 202, body: { accepted: true } })
    expect(await mailsTo(nobody)).toEqual([])
  })

  it('a POST from another site is refused and spends nothing (log-in CSRF)', async () => {
    const token = (await accessLink()).link.searchParams.get('token')!
    const forged = await fetch(`${svc.url}/members/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'cross-site',
      },
      body: new URLSearchParams({ token }),
      redirect: 'manual',
    })
    expect(forged.status).toBe(410)
    expect((await spend(token)).status).toBe(303)
  })

  it('the logged-out members page offers the link form and the password log-in', async () => {
    const res = await fetch(`${svc.url}/members`)
    expect(res.status).toBe(401)
    const page = await res.text()
    expect(page).toContain('Receber link de acesso')
    expect(page).toContain('autocomplete="current-password"')
  })

  it('tokens never reach the logs', async () => {
    const { link } = await accessLink()
    const token = link.searchParams.get('token')!
    const lines: string[] = []
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    })
    const { log: _, ...deps } = svc.deps
    const app = await buildApp(
      { ...deps, config: { ...deps.config, logLevel: 'info' } },
      { logStream },
    )
    try {
      const base = await app.listen({ port: 0, host: '127.0.0.1' })
      await fetch(`${base}${link.pathname}${link.search}`)
      await fetch(`${base}/checkout/nada?session=segredo-da-sessao&ref=abc`)
    } finally {
      await app.close()
    }
    const urls = lines.map((line) => JSON.parse(line).req?.url).filter(Boolean)
    expect(urls).toContain('/members/login?token=REDACTED')
    expect(urls).toContain('/checkout/nada?session=REDACTED&ref=abc')
    const all = lines.join('\n')
    expect(all).not.toContain(token)
    expect(all).not.toContain('segredo-da-sessao')
  })
})

describe(`sessions (${engine})`, () => {
  it('changing the password ends the other sessions and keeps this one', async () => {
    const creator = await signupCreator(svc.api)
    const login = await svc.api('POST', '/api/auth/login', {
      body: { email: creator.email, password: 'senha-forte-123' },
    })
    const other = { cookie: sessionCookieFrom(login.headers), csrf: login.body.csrf_token }
    expect((await svc.api('GET', '/api/me', { session: other })).status).toBe(200)

    const changed = await svc.api('POST', '/api/auth/password', {
      session: creator.session,
      body: { password: 'senha-nova-456', current_password: 'senha-forte-123' },
    })
    expect(changed.status).toBe(200)
    expect((await svc.api('GET', '/api/me', { session: creator.session })).status).toBe(200)
    expect((await svc.api('GET', '/api/me', { session: other })).status).toBe(401)
  })
})
