// The sales sections of the dashboard in Chromium: the overview (first steps of a new account,
// the 30-day figures and the revenue chart's numbers), orders (filters, CSV download, detail and
// refund), members (hand grant, revoke) and subscriptions (cancel). Every page passes axe at
// both widths and has no sideways scroll at 360 px; a dismissed confirmation changes nothing.
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser } from '../setup/browser.ts'
import { paidSale } from '../setup/ledger.ts'
import { checkout, createProduct, pay } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'
import { checkPage, confirmations, logIn } from './dashboard-steps.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

describe(`dashboard sales pages (${engine})`, () => {
  it('a new account sees its first steps; a paid sale moves the figures and the chart', async () => {
    const creator = await signupCreator(svc.api, 'Lia Estreante')
    const browser = await openBrowser()
    try {
      const { page } = browser
      await logIn(page, `${svc.url}/dashboard`, creator)
      const steps = page.getByRole('region', { name: 'Primeiros passos' })
      const items = steps.getByRole('listitem')
      expect(await items.count()).toBe(3)
      expect(await steps.textContent()).not.toContain('Feito')
      expect(
        await steps.getByRole('link', { name: 'Cadastrar chave Pix' }).getAttribute('href'),
      ).toBe('/dashboard/saldo')
      const period = page.getByRole('region', { name: 'Últimos 30 dias' })
      expect(await period.getByRole('img', { name: 'Receita por dia' }).count()).toBe(1)
      expect(await period.textContent()).toContain('Nenhuma receita nos últimos 30 dias.')
      await checkPage(page)

      const key = await creator.key(['write:products'])
      const product = await createProduct(svc.api, key, { plans: [{ name: 'Único', price: 150 }] })
      await svc.api('POST', '/api/checkout/sessions', {
        body: { product_id: product.id, email: 'curiosa@example.com' },
      })
      await paidSale(svc, creator, { productId: product.id, key })
      await page.reload()
      const figures = await period.locator('dl').textContent()
      expect(figures).toContain('ReceitaR$ 150,00')
      expect(figures).toContain('Pedidos pagos1')
      expect(figures).toContain('Sessões de checkout1')
      expect(figures).toContain('100 %')
      const numbers = period.getByRole('list', { name: 'Receita por dia, em números' })
      const today = new Date().toLocaleDateString('pt-BR', { timeZone: 'America/Sao_Paulo' })
      expect(await numbers.getByRole('listitem').count()).toBe(30)
      expect(await numbers.getByRole('listitem').last().textContent()).toBe(
        `${today}: R$ 150,00, 1 pedido(s) pago(s), 1 sessão(ões) de checkout`,
      )
      const bar = period.locator('rect').last()
      expect(Number(await bar.getAttribute('height'))).toBeGreaterThan(50)
      expect(await period.getByRole('img').getAttribute('aria-labelledby')).toBe(
        'grafico-titulo grafico-resumo',
      )
      // The product and the sale are done; the PIX key is not, so the list stays.
      expect(await steps.getByText('Feito:').count()).toBe(2)
      await checkPage(page)

      await svc.api('PATCH', '/api/profile/pix', {
        session: creator.session,
        body: { pix_key_type: 'cpf', pix_key: '529.982.247-25' },
      })
      await page.reload()
      expect(await page.getByRole('region', { name: 'Primeiros passos' }).count()).toBe(0)
      await browser.close('dashboard-sales-overview')
    } catch (error) {
      await browser.close().catch(() => {})
      throw error
    }
  })

  it('filters orders, downloads the CSV, and refunds one from its page with a reason', async () => {
    const creator = await signupCreator(svc.api, 'Nina Filtros')
    const key = await creator.key(['write:products'])
    const course = await createProduct(svc.api, key, {
      name: 'Curso de Aquarela',
      payment_methods: ['pix', 'card'],
      plans: [{ name: 'Único', price: 120 }],
    })
    const ebook = await createProduct(svc.api, key, {
      name: 'E-book de Cores',
      plans: [{ name: 'Único', price: 30 }],
    })
    const byCard = await checkout(svc.api, course.id, {
      payment_method: 'card',
      card_token: 'tok_approved',
      email: 'cartao@example.com',
    })
    expect(byCard.body.status).toBe('paid')
    const { orderId } = await paidSale(svc, creator, {
      productId: ebook.id,
      key,
      body: { email: 'pix@example.com' },
    })
    await checkout(svc.api, ebook.id, { email: 'pendente@example.com' })

    const browser = await openBrowser()
    try {
      const { page } = browser
      const answers = confirmations(page)
      await logIn(page, `${svc.url}/dashboard/pedidos`, creator)
      const list = page.getByRole('region', { name: 'Todos os pedidos' })
      expect(await list.getByRole('listitem').count()).toBe(3)
      await checkPage(page)

      const filters = page.getByRole('region', { name: 'Filtros' })
      await filters.getByLabel('Forma de pagamento').selectOption('card')
      await filters.getByRole('button', { name: 'Filtrar' }).click()
      await page.waitForURL(/payment_method=card/)
      const filtered = page.getByRole('region', { name: 'Pedidos filtrados' })
      expect(await filtered.getByRole('listitem').count()).toBe(1)
      expect(await filtered.textContent()).toContain('R$ 120,00 · pago · Curso de Aquarela')

      await page.goto(`${svc.url}/dashboard/pedidos?status=paid&product_id=nao-e-id&de=ontem`)
      expect(await filtered.getByRole('listitem').count()).toBe(2)
      expect(await filters.getByLabel('Status').inputValue()).toBe('paid')
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        filtered.getByRole('link', { name: 'Baixar planilha (CSV) destes filtros' }).click(),
      ])
      expect(download.suggestedFilename()).toMatch(/^pedidos-\d{4}-\d{2}-\d{2}\.csv$/)
      const bytes = readFileSync((await download.path())!)
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
      const rows = bytes.toString('utf8').slice(1).trim().split('\r\n')
      expect(rows).toHaveLength(3)
      expect(rows[0]).toMatch(/^Pedido;Criado em;Status;Produto;/)
      expect(rows.find((r) => r.includes('pix@example.com'))).toContain(';Pago;E-book de Cores;')
      expect(rows.some((r) => r.includes('pendente@example.com'))).toBe(false)

      await filtered.getByRole('link', { name: 'Ver pedido de pix@example.com' }).click()
      await page.waitForURL(`**/dashboard/pedidos/${orderId}`)
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Pedido de R$ 30,00')
      const refund = page.getByRole('region', { name: 'Reembolso' })
      expect(await refund.textContent()).toContain('Nenhum reembolso pedido.')
      await checkPage(page)

      // Dismissed: nothing is sent.
      await refund.getByLabel('Motivo do reembolso').fill('Comprou por engano')
      answers.accept = false
      await refund.getByRole('button', { name: 'Reembolsar R$ 30,00' }).click()
      expect(answers.asked.at(-1)).toBe(
        'Reembolsar R$ 30,00 a pix@example.com? O acesso ao produto é revogado quando o reembolso for concluído.',
      )
      const none = await svc.api('GET', `/api/v1/refunds?order_id=${orderId}`, {
        key: await creator.key(['read:refunds']),
      })
      expect(none.body.data).toEqual([])

      answers.accept = true
      await refund.getByRole('button', { name: 'Reembolsar R$ 30,00' }).click()
      await expect.poll(() => refund.textContent()).toContain('Motivo: Comprou por engano')
      expect(await page.locator('#aviso').textContent()).toBe('Reembolso solicitado.')
      expect(await refund.getByRole('button').count()).toBe(0)
      await expect
        .poll(async () => {
          await page.reload()
          return page.getByRole('region', { name: 'Resumo' }).textContent()
        })
        .toContain('reembolsado')
      expect(await refund.textContent()).toContain('reembolso concluído')
      await checkPage(page)

      const missing = await page.goto(`${svc.url}/dashboard/pedidos/nao-existe`)
      expect(missing?.status()).toBe(404)
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
        'Pedido não encontrado',
      )
      await browser.close('dashboard-sales-orders')
    } catch (error) {
      await browser.close().catch(() => {})
      throw error
    }
  })

  it('pages orders with "Mais antigos" (keyset), keeping the filters, to the oldest', async () => {
    const creator = await signupCreator(svc.api, 'Quitéria Paginas')
    const key = await creator.key(['write:products'])
    const product = await createProduct(svc.api, key)
    const ids: string[] = []
    for (let i = 0; i < 22; i++) ids.push((await checkout(svc.api, product.id)).body.order_id)
    const page = async (path: string) => {
      const res = await fetch(`${svc.url}${path}`, { headers: { cookie: creator.session.cookie } })
      expect(res.status).toBe(200)
      const html = await res.text()
      const shown = [...html.matchAll(/\/dashboard\/pedidos\/([0-9a-f-]{36})"/g)].map((m) => m[1])
      const older = /href="([^"]*starting_after=[^"]*)">Mais antigos/.exec(html)?.[1]
      return { shown, older: older?.replaceAll('&amp;', '&'), html }
    }
    const first = await page('/dashboard/pedidos?status=pending')
    expect(first.shown).toEqual(ids.slice(2).reverse())
    expect(first.older).toContain('status=pending')
    const second = await page(first.older!)
    expect(second.shown).toEqual([ids[1], ids[0]])
    expect(second.older).toBeUndefined()
    expect(second.html).toContain('Mais recentes')
  })

  it('grants access by hand and revokes it after a confirmation (a dismissed one keeps it)', async () => {
    const creator = await signupCreator(svc.api, 'Olga Membros')
    const key = await creator.key(['write:products'])
    const product = await createProduct(svc.api, key, { name: 'Oficina de Bordado' })
    const browser = await openBrowser()
    try {
      const { page } = browser
      const answers = confirmations(page)
      await logIn(page, `${svc.url}/dashboard/membros`, creator)
      const members = page.getByRole('region', { name: 'Quem tem acesso' })
      expect(await members.textContent()).toContain('Nenhum membro ainda.')
      const grant = page.getByRole('region', { name: 'Liberar acesso à mão' })
      await grant.getByLabel('E-mail da pessoa').fill('amiga@example.com')
      await grant.getByLabel('Nome (opcional)').fill('Clara Amiga')
      await grant.getByLabel('Produto').selectOption(product.id)
      await grant.getByRole('button', { name: 'Liberar acesso' }).click()
      await expect.poll(() => members.textContent()).toContain('Clara Amiga')
      expect(await members.textContent()).toContain('concedido à mão')
      await checkPage(page)

      // The same person again: the API's refusal beside the form.
      await grant.getByLabel('E-mail da pessoa').fill('amiga@example.com')
      await grant.getByRole('button', { name: 'Liberar acesso' }).click()
      await expect
        .poll(() => grant.getByRole('alert').textContent())
        .toBe('Esta pessoa já tem acesso ativo a este produto')

      const revoke = members.getByRole('button', { name: 'Revogar acesso a Oficina de Bordado' })
      answers.accept = false
      await revoke.click()
      expect(answers.asked.at(-1)).toContain('Revogar o acesso de amiga@example.com')
      expect(await members.textContent()).toContain('ativo desde')
      answers.accept = true
      await revoke.click()
      await expect.poll(() => members.textContent()).toContain('revogado em')
      expect(await page.locator('#aviso').textContent()).toBe('Acesso revogado.')
      const list = await svc.api('GET', '/api/v1/members', {
        key: await creator.key(['read:members']),
      })
      expect(list.body.data[0].access[0]).toMatchObject({ status: 'revoked', order_id: null })
      await checkPage(page)
      await browser.close('dashboard-sales-members')
    } catch (error) {
      await browser.close().catch(() => {})
      throw error
    }
  })

  it('cancels a subscription at the end of its period after a confirmation', async () => {
    const creator = await signupCreator(svc.api, 'Paula Assinaturas')
    const key = await creator.key(['write:products'])
    const club = await createProduct(svc.api, key, {
      name: 'Clube do Livro',
      billing: 'recurring',
      plans: [{ name: 'Mensal', price: 29.9, interval: 'month' }],
    })
    const sub = await checkout(svc.api, club.id, { email: 'leitora@example.com' })
    expect((await pay(svc.api, sub.body.charge_id)).body.callback_status).toBe(200)

    const browser = await openBrowser()
    try {
      const { page } = browser
      const answers = confirmations(page)
      await logIn(page, `${svc.url}/dashboard/assinaturas`, creator)
      const subs = page.getByRole('region', { name: 'Assinantes' })
      await expect
        .poll(() => subs.textContent())
        .toContain('Clube do Livro · Mensal · R$ 29,90 por mês')
      expect(await subs.textContent()).toContain('ativa próxima cobrança em')
      await checkPage(page)

      const cancel = subs.getByRole('button', {
        name: 'Cancelar assinatura de leitora@example.com',
      })
      answers.accept = false
      await cancel.click()
      expect(answers.asked.at(-1)).toContain('Cancelar a assinatura de leitora@example.com')
      expect(await subs.textContent()).toContain('próxima cobrança em')
      answers.accept = true
      await cancel.click()
      await expect.poll(() => subs.textContent()).toContain('sem nova cobrança')
      expect(await page.locator('#aviso').textContent()).toBe('Assinatura cancelada.')
      await checkPage(page)

      // Set to end: what is left is ending it now, which revokes the access at once.
      await subs
        .getByRole('button', { name: 'Encerrar agora a assinatura de leitora@example.com' })
        .click()
      expect(answers.asked.at(-1)).toContain('O acesso é revogado na hora.')
      await expect.poll(() => subs.textContent()).toContain('cancelada em')
      expect(await subs.getByRole('button').count()).toBe(0)
      const members = await svc.api('GET', '/api/v1/members', {
        key: await creator.key(['read:members']),
      })
      expect(members.body.data[0].access[0].status).toBe('revoked')
      await browser.close('dashboard-sales-subscriptions')
    } catch (error) {
      await browser.close().catch(() => {})
      throw error
    }
  })
})
