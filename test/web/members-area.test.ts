// The buyer's journey in Chromium: buy (API, sandbox pay) → open the payment e-mail's link →
// the members area shows the product and the purchase → ask a refund (confirmed first) →
// "Reembolso solicitado" → Sair → ask a new link → back in. Also: a product without a
// delivery URL says who sends the access; a buyer who set a password logs in with it; a
// subscription is cancelled from the page; axe at 360 and 1280 px on the logged-in page.
import { randomBytes } from 'node:crypto'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Creator, followLoginLink, signupCreator } from '../setup/actors.ts'
import { openBrowser } from '../setup/browser.ts'
import { checkout, createProduct, pay } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'
import { scrollsSideways, unnamedControls } from './a11y.ts'
import { AXE_WIDTHS, seriousAxeViolations } from './axe.ts'

let svc: TestService
let creator: Creator
let key: string
beforeAll(async () => {
  svc = await startTestService()
  creator = await signupCreator(svc.api, 'Estúdio Aurora')
  key = await creator.key(['write:products'])
})
afterAll(() => svc?.stop())

const local = (link: string) => link.replace(/^http:\/\/localhost:\d+/, svc.url)

async function mailsTo(email: string) {
  return (await svc.api('GET', `/api/dev/emails?to=${email}`)).body.data as {
    subject: string
    text: string
  }[]
}

/** Buys each product (paid) as one new buyer; returns the e-mail and the payment mail's link. */
async function buy(...productIds: string[]) {
  const email = `beatriz-${randomBytes(4).toString('hex')}@example.com`
  for (const id of productIds) {
    const created = await checkout(svc.api, id, { email })
    expect((await pay(svc.api, created.body.charge_id)).body.callback_status).toBe(200)
  }
  const paid = (await mailsTo(email)).find((m) => m.subject.startsWith('Pagamento confirmado'))!
  return { email, link: /(http\S+\/members\/login\?token=m1\.\S+)/.exec(paid.text)![1]! }
}

async function enterByLink(page: Page, link: string) {
  await page.goto(local(link))
  await page.getByRole('button', { name: 'Entrar na área de membros' }).click()
  await page.waitForURL((url) => url.pathname === '/members')
  await page.getByRole('heading', { name: 'Meus produtos' }).waitFor()
}

describe(`members area (${engine})`, () => {
  it('payment e-mail link → products and purchase → refund → log out → new link → back in', async () => {
    const withUrl = await createProduct(svc.api, key, {
      name: 'Curso de Cerâmica',
      delivery_url: 'https://aulas.example.com/ceramica',
    })
    const withoutUrl = await createProduct(svc.api, key, {
      name: 'Mentoria Individual',
      description: 'Quatro encontros por vídeo.',
      plans: [{ name: 'Único', price: 250 }],
    })
    const { email, link } = await buy(withUrl.id, withoutUrl.id)
    const browser = await openBrowser()
    try {
      const { page } = browser
      await enterByLink(page, link)
      expect(await scrollsSideways(page)).toBe(false)
      expect(await unnamedControls(page)).toEqual([])

      const ceramica = page.getByRole('article', { name: 'Curso de Cerâmica' })
      expect(
        await ceramica.getByRole('link', { name: 'Acessar conteúdo' }).getAttribute('href'),
      ).toBe('https://aulas.example.com/ceramica')
      // Without a delivery URL: what it is, and who sends the access.
      const mentoria = page.getByRole('article', { name: 'Mentoria Individual' })
      expect(await mentoria.textContent()).toContain('Quatro encontros por vídeo.')
      expect(await mentoria.getByRole('link', { name: creator.email }).getAttribute('href')).toBe(
        `mailto:${creator.email}`,
      )

      const purchase = page.getByRole('listitem', { name: 'Compra: Curso de Cerâmica' })
      const text = await purchase.textContent()
      expect(text).toMatch(/R\$\s97,90/)
      expect(text).toContain('Pago')
      await purchase.getByText('Pedir reembolso', { exact: true }).click()
      await purchase.getByLabel('Motivo do reembolso').fill('O curso não abre no meu celular.')
      await purchase.getByRole('button', { name: 'Continuar' }).click()
      // Confirmed first: nothing is sent before "Sim".
      await purchase.getByText('Confirma o pedido de reembolso de R$', { exact: false }).waitFor()
      await purchase.getByRole('button', { name: 'Voltar' }).click()
      await purchase.getByRole('button', { name: 'Continuar' }).click()
      await purchase.getByRole('button', { name: 'Sim, pedir reembolso' }).click()
      await purchase.getByText('Reembolso solicitado').waitFor()

      await page.getByRole('button', { name: 'Sair' }).click()
      await page.getByRole('heading', { name: 'Receber link de acesso' }).waitFor()
      const form = page.locator('#link')
      await form.getByLabel('E-mail').fill(email)
      await form.getByRole('button', { name: 'Receber link de acesso' }).click()
      await page.getByRole('status').getByText('Pronto!', { exact: false }).waitFor()
      const asked = (await mailsTo(email)).find((m) => m.subject.includes('link de acesso'))!
      await enterByLink(page, /(http\S+\/members\/login\?token=\S+)/.exec(asked.text)![1]!)
      // The refund kept its state (pending, or completed by the worker meanwhile).
      const again = await page
        .getByRole('listitem', { name: 'Compra: Curso de Cerâmica' })
        .textContent()
      expect(again).toMatch(/Reembolso (solicitado|concluído)/)
    } finally {
      await browser.close('members-buyer-journey')
    }
  })

  it('a buyer who set a password logs in with it on /members', async () => {
    const product = await createProduct(svc.api, key)
    const { email, link } = await buy(product.id)
    const session = await followLoginLink(svc.url, link)
    const set = await svc.api('POST', '/api/auth/password', {
      session,
      body: { password: 'senha-da-bia-1' },
    })
    expect(set.status).toBe(200)
    const browser = await openBrowser()
    try {
      const { page } = browser
      await page.goto(`${svc.url}/members`)
      const login = page.locator('#entrar')
      await login.getByLabel('E-mail').fill(email)
      await login.getByLabel('Senha').fill('senha-errada-1')
      await login.getByRole('button', { name: 'Entrar' }).click()
      await expect
        .poll(() => login.getByRole('alert').textContent())
        .toBe('E-mail ou senha incorretos.')
      await login.getByLabel('Senha').fill('senha-da-bia-1')
      await login.getByRole('button', { name: 'Entrar' }).click()
      await page.getByRole('listitem', { name: 'Compra: Curso de Teste' }).waitFor()
    } finally {
      await browser.close('members-buyer-password')
    }
  })

  it('cancels a subscription from the page after confirming', async () => {
    const recurring = await createProduct(svc.api, key, {
      name: 'Clube do Livro',
      billing: 'recurring',
      plans: [{ name: 'Mensal', price: 29.9, interval: 'month' }],
    })
    const { link } = await buy(recurring.id)
    const browser = await openBrowser()
    try {
      const { page } = browser
      await enterByLink(page, link)
      const sub = page.getByRole('listitem', { name: 'Assinatura: Clube do Livro' })
      expect(await sub.textContent()).toContain('Ativa')
      await sub.getByRole('button', { name: 'Cancelar assinatura' }).click()
      await sub.getByRole('button', { name: 'Sim, cancelar' }).click()
      await sub
        .getByText('Assinatura cancelada. Você mantém o acesso até', { exact: false })
        .waitFor()
      await page.reload()
      expect(await sub.textContent()).toContain('cancelamento agendado')
    } finally {
      await browser.close('members-subscription-cancel')
    }
  })

  for (const viewport of AXE_WIDTHS)
    it(`the logged-in members area passes axe at ${viewport.width} px`, async () => {
      const withUrl = await createProduct(svc.api, key, { delivery_url: 'https://x.example/a' })
      const recurring = await createProduct(svc.api, key, {
        billing: 'recurring',
        plans: [{ name: 'Mensal', price: 30, interval: 'month' }],
      })
      const { link } = await buy(withUrl.id, recurring.id)
      const browser = await openBrowser(viewport)
      try {
        await enterByLink(browser.page, link)
        expect(await seriousAxeViolations(browser.page)).toEqual([])
        // The refund form and a confirmation step open, too.
        await browser.page.locator('details.pedir summary').first().click()
        await browser.page.getByRole('button', { name: 'Cancelar assinatura' }).click()
        expect(await seriousAxeViolations(browser.page)).toEqual([])
        await browser.page.goto(local(link))
        expect(await seriousAxeViolations(browser.page)).toEqual([])
      } finally {
        await browser.close(`members-axe-${viewport.width}`)
      }
    })
})
