import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../setup/actors.ts'
import { openBrowser } from '../setup/browser.ts'
import { paidSale } from '../setup/ledger.ts'
import { ADMIN, adminSession, balanceOf, review } from '../setup/payouts.ts'
import { checkout, createProduct, pay } from '../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../setup/service.ts'
import { checkPageAtBothWidths, logIn, nextDialog } from './dashboard-steps.ts'

// Waits for what the page or the workers will show (not a timing assertion: the bound is generous).
const WAIT = { timeout: 30_000, interval: 100 }

let svc: TestService
beforeAll(async () => {
  svc = await startTestService(ADMIN)
})
afterAll(() => svc?.stop())

/** Answers the next confirmation and returns its question. */
/** Another creator's product sold once through `affiliateCode`, or with `coproducerEmail` in. */
async function saleElsewhere(partnerEmail: string, role: 'affiliate' | 'coproducer') {
  const other = await signupCreator(svc.api, 'Outra Produtora')
  const key = await other.key(['write:products'])
  const product = await createProduct(svc.api, key, { plans: [{ name: 'Único', price: 100 }] })
  const enrolled = await svc.api(
    'POST',
    `/api/v1/products/${product.id}/${role === 'affiliate' ? 'affiliates' : 'coproducers'}`,
    {
      key,
      body:
        role === 'affiliate'
          ? { email: partnerEmail, commission_percent: 30 }
          : { email: partnerEmail, split_percent: 50 },
    },
  )
  expect(enrolled.status).toBe(201)
  const created = await checkout(
    svc.api,
    product.id,
    role === 'affiliate' ? { affiliate_code: enrolled.body.data.code } : {},
  )
  expect(created.status).toBe(201)
  expect((await pay(svc.api, created.body.charge_id)).body.callback_status).toBe(200)
}

describe(`dashboard: balance, PIX key and withdrawals (${engine})`, () => {
  it('explains the balance, masks the PIX key and confirms a withdrawal by amount and key', {
    timeout: 180_000,
  }, async () => {
    const creator = await signupCreator(svc.api, 'Rita Ceramista')
    await paidSale(svc, creator, { price: 150 })
    await saleElsewhere(creator.email, 'affiliate')
    await saleElsewhere(creator.email, 'coproducer')

    const browser = await openBrowser()
    try {
      const { page } = browser
      await logIn(page, `${svc.url}/dashboard/saldo`, creator)
      const money = page.getByRole('region', { name: 'Saldo', exact: true })
      const pix = page.getByRole('region', { name: 'Chave Pix' })
      const withdrawals = page.getByRole('region', { name: 'Saques' })
      expect(await money.textContent()).toContain('Disponível para saque')
      expect(await money.locator('dd').first().textContent()).toBe('R$ 150,00')
      expect(await money.textContent()).toContain('Não pode ser sacada por você')
      expect(await pix.textContent()).toContain('Nenhuma chave cadastrada')
      expect(await withdrawals.textContent()).toContain('Nenhum saque ainda')

      // The key field follows its type: a phone keypad and the phone mask, then the CPF's.
      const field = pix.getByLabel('Chave Pix')
      await pix.getByLabel('Tipo de chave').selectOption('phone')
      expect(await field.getAttribute('inputmode')).toBe('tel')
      await field.pressSequentially('11987654321')
      expect(await field.inputValue()).toBe('(11) 98765-4321')
      await pix.getByLabel('Tipo de chave').selectOption('cpf')
      expect(await field.getAttribute('inputmode')).toBe('numeric')
      await field.fill('')
      await field.pressSequentially('52998224725')
      expect(await field.inputValue()).toBe('529.982.247-25')
      await pix.getByRole('button', { name: 'Salvar chave' }).click()
      await expect.poll(() => pix.textContent(), WAIT).toContain('aguardando verificação')
      expect(await pix.textContent()).toContain('***.982.247-**')

      // Dismissed: the question names the amount and the masked key; nothing is sent.
      await money.getByLabel('Valor do saque (R$)').fill('100')
      const dismissed = nextDialog(page, 'dismiss')
      await money.getByRole('button', { name: 'Solicitar saque' }).click()
      expect(await dismissed).toMatch(
        /^Sacar R\$\s100,00 para a chave Pix \*\*\*\.982\.247-\*\*\?$/,
      )
      expect(await money.locator('.form-error').textContent()).toBe('')
      expect(await withdrawals.textContent()).toContain('Nenhum saque ainda')
      expect(await balanceOf(svc.api, creator)).toMatchObject({ available: 150 })

      // Accepted while the key waits for verification: the seed's refusal, beside the form.
      const refused = nextDialog(page, 'accept')
      await money.getByRole('button', { name: 'Solicitar saque' }).click()
      await refused
      await expect
        .poll(() => money.getByRole('alert').textContent(), WAIT)
        .toBe('Sua chave Pix está aguardando verificação')

      const admin = await adminSession(svc.api)
      const verified = await svc.api('POST', `/api/admin/pix-keys/${creator.userId}/verify`, {
        session: admin,
      })
      expect(verified.status).toBe(200)
      await page.reload()
      expect(await pix.textContent()).toContain('verificada')
      await money.getByLabel('Valor do saque (R$)').fill('100')
      const accepted = nextDialog(page, 'accept')
      await money.getByRole('button', { name: 'Solicitar saque' }).click()
      expect(await accepted).toMatch(/R\$\s100,00/)
      await expect.poll(() => withdrawals.textContent(), WAIT).toContain('R$ 100,00 · pendente')
      expect(await withdrawals.textContent()).toContain('Aguardando a aprovação')
      expect(await money.locator('dd').first().textContent()).toBe('R$ 50,00')
      expect(await balanceOf(svc.api, creator)).toMatchObject({ available: 50 })

      // A second one while the first is pending: the seed's 409 message, beside the form.
      await money.getByLabel('Valor do saque (R$)').fill('20')
      const again = nextDialog(page, 'accept')
      await money.getByRole('button', { name: 'Solicitar saque' }).click()
      await again
      await expect
        .poll(() => money.getByRole('alert').textContent(), WAIT)
        .toBe('Você já tem um saque pendente')

      // Earnings elsewhere: the affiliate and co-producer balances, each with its own form.
      const affiliate = page.getByRole('region', { name: 'Comissões como afiliado' })
      const coproducer = page.getByRole('region', { name: 'Ganhos como coprodutor' })
      expect(await affiliate.locator('dd').first().textContent()).toBe('R$ 30,00')
      expect(await coproducer.locator('dd').first().textContent()).toBe('R$ 50,00')
      await affiliate.getByLabel('Valor do saque (R$)').fill('20')
      const commission = nextDialog(page, 'accept')
      await affiliate.getByRole('button', { name: 'Solicitar saque' }).click()
      expect(await commission).toMatch(/R\$\s20,00/)
      await expect.poll(() => withdrawals.textContent(), WAIT).toContain('comissões de afiliado')
      expect(await affiliate.locator('dd').first().textContent()).toBe('R$ 10,00')

      // The admin refuses the creator's withdrawal: its status and note show, the money is back.
      const mine = await svc.api('GET', '/api/withdrawals?status=pending', {
        session: creator.session,
      })
      const creatorWithdrawal = mine.body.data.find((w: { role: string }) => w.role === 'creator')
      const rejected = await review(svc.api, admin, creatorWithdrawal.id, 'reject', {
        admin_note: 'Dados bancários divergentes',
      })
      expect(rejected.status).toBe(200)
      await page.reload()
      const refusedItem = withdrawals.getByRole('listitem').filter({ hasText: 'R$ 100,00' })
      expect(await refusedItem.textContent()).toContain('recusado')
      expect(await refusedItem.textContent()).toContain(
        'Observação da equipe: Dados bancários divergentes',
      )
      expect(await money.locator('dd').first().textContent()).toBe('R$ 150,00')

      // A rejected key: its reason and what to do next, and the seed's refusal beside the form.
      const keyRejected = await svc.api('POST', `/api/admin/pix-keys/${creator.userId}/reject`, {
        session: admin,
        body: { reason: 'Chave de outro titular' },
      })
      expect(keyRejected.status).toBe(200)
      await page.reload()
      expect(await pix.textContent()).toContain('rejeitada')
      expect(await pix.textContent()).toContain('Motivo: Chave de outro titular')
      await money.getByLabel('Valor do saque (R$)').fill('50')
      const blocked = nextDialog(page, 'accept')
      await money.getByRole('button', { name: 'Solicitar saque' }).click()
      await blocked
      await expect
        .poll(() => money.getByRole('alert').textContent(), WAIT)
        .toBe('Sua chave Pix foi rejeitada: Chave de outro titular')
    } finally {
      await browser.close('dashboard-money-balance')
    }

    await checkPageAtBothWidths(`${svc.url}/dashboard/saldo`, creator)
  })
})
