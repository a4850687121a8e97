// "Esqueci minha senha" over HTTP: the same 202 for every e-mail, a mailed one-time token that
// sets a new password and ends every session, limited like log-in links (3 per e-mail).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sessionCookieFrom, signupCreator } from '../../setup/actors.ts'
import { engine, startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

async function resetToken(email: string) {
  const { data } = (await svc.api('GET', `/api/dev/emails?to=${email}`)).body
  const mail = data.find(
    (m: { subject: string }) => m.subject === 'Redefinição de senha da Vitrine',
  )
  return /\/senha\/redefinir\?token=(\S+)/.exec(mail.text)![1]!
}

describe(`password reset (${engine})`, () => {
  it('sets the new password once, ends every session and logs the caller in', async () => {
    const creator = await signupCreator(svc.api)
    const asked = await svc.api('POST', '/api/auth/password-reset', {
      body: { email: creator.email.toUpperCase() },
    })
    expect(asked.status).toBe(202)
    const token = await resetToken(creator.email)
    const short = await svc.api('POST', '/api/auth/password-reset/complete', {
      body: { token, password: 'curta' },
    })
    expect(short.status).toBe(400)
    expect(short.body.details[0].message).toBe('A senha precisa ter pelo menos 8 caracteres')

    const done = await svc.api('POST', '/api/auth/password-reset/complete', {
      body: { token, password: 'nova-senha-123' },
    })
    expect(done.status).toBe(200)
    expect(done.body.user.email).toBe(creator.email)
    const cookie = sessionCookieFrom(done.headers)
    const session = { cookie, csrf: done.body.csrf_token }
    expect((await svc.api('GET', '/api/me', { session })).status).toBe(200)
    expect((await svc.api('GET', '/api/me', { session: creator.session })).status).toBe(401)

    const twice = await svc.api('POST', '/api/auth/password-reset/complete', {
      body: { token, password: 'outra-senha-123' },
    })
    expect(twice.status).toBe(400)
    const login = await svc.api('POST', '/api/auth/login', {
      body: { email: creator.email, password: 'nova-senha-123' },
    })
    expect(login.status).toBe(200)
  })

  it('mails at most 3 links per e-mail in 15 minutes (429 with Retry-After)', async () => {
    const creator = await signupCreator(svc.api)
    for (let i = 0; i < 3; i++) {
      const res = await svc.api('POST', '/api/auth/password-reset', {
        body: { email: creator.email },
      })
      expect(res.status).toBe(202)
    }
    const refused = await svc.api('POST', '/api/auth/password-reset', {
      body: { email: creator.email },
    })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    const { data } = (await svc.api('GET', `/api/dev/emails?to=${creator.email}`)).body
    expect(
      data.filter((m: { subject: string }) => m.subject.startsWith('Redefinição')),
    ).toHaveLength(3)
  })
})
