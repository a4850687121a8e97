import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../../setup/actors.ts'
import { checkout, createProduct } from '../../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
let product: { id: string; slug: string; name: string }
beforeAll(async () => {
  svc = await startTestService({ CART_RECOVERY_AFTER: '1h' })
  const key = await (await signupCreator(svc.api)).key(['write:products'])
  product = await createProduct(svc.api, key, { name: 'Aquarela Básica' })
})
afterAll(() => svc?.stop())

const mails = async (to: string) =>
  (await svc.api('GET', `/api/dev/emails?to=${to}`)).body.data as {
    subject: string
    text: string
  }[]

/** One pass of the recovery worker; the dev mailbox shows what it queued. */
const recoveryPass = () => svc.workers!.runOnce('checkout.cart-recovery')

describe(`abandoned-cart recovery (${engine})`, () => {
  it('one e-mail per unconverted session after CART_RECOVERY_AFTER, linking back to the pre-filled checkout', async () => {
    const abandoned = await svc.api('POST', '/api/checkout/sessions', {
      body: { product_id: product.id, email: 'sumiu@example.com' },
    })
    await svc.api('PATCH', `/api/checkout/sessions/${abandoned.body.session_id}`, {
      body: { session_token: abandoned.body.session_token, name: 'Dora' },
    })
    const converted = await svc.api('POST', '/api/checkout/sessions', {
      body: { product_id: product.id, email: 'comprou@example.com' },
    })
    await checkout(svc.api, product.id, {
      email: 'comprou@example.com',
      session_id: converted.body.session_id,
    })

    await svc.api('POST', '/sandbox/clock/advance', { body: { seconds: 59 * 60 } })
    await recoveryPass()
    expect((await mails('sumiu@example.com')).length).toBe(0)

    await svc.api('POST', '/sandbox/clock/advance', { body: { seconds: 2 * 60 } })
    await recoveryPass()
    const sent = await mails('sumiu@example.com')
    expect(sent).toHaveLength(1)
    const mail = sent[0]
    expect(mail!.subject).toBe('Sua compra de Aquarela Básica está esperando por você')
    expect(mail!.text).toContain('Olá, Dora!')
    const link = `${svc.deps.config.checkoutUrl}/checkout/${product.slug}?session=${abandoned.body.session_id}`
    expect(mail!.text).toContain(link)
    // The link opens the checkout pre-filled with what the buyer had typed.
    const page = await fetch(link.replace(svc.deps.config.checkoutUrl, svc.url))
    const html = await page.text()
    expect(html).toContain('value="sumiu@example.com"')
    expect(html).toContain('value="Dora"')

    await svc.api('POST', '/sandbox/clock/advance', { body: { seconds: 3600 } })
    await recoveryPass()
    expect((await mails('sumiu@example.com')).length).toBe(1)
    const buyerMails = await mails('comprou@example.com')
    expect(buyerMails.some((m) => m.subject.startsWith('Sua compra de'))).toBe(false)
  })
})
