// What the hosted-checkout browser tests share: two products and a buyer filling the form.
import type { Page } from 'playwright-core'
import { createProduct, VALID_CPF } from '../setup/purchase.ts'
import type { ApiClient } from '../setup/service.ts'

export interface CheckoutProduct {
  id: string
  slug: string
  plans: { id: string; name: string }[]
}

/** A one_time product at R$ 197,00 and a recurring one with a monthly and a yearly plan. */
export async function checkoutProducts(api: ApiClient, key: string) {
  const oneTime: CheckoutProduct = await createProduct(api, key, {
    name: 'Curso de Cerâmica',
    description: 'Do barro ao forno em 12 aulas gravadas.',
    plans: [{ name: 'Vitalício', price: 197 }],
  })
  const recurring: CheckoutProduct = await createProduct(api, key, {
    name: 'Clube do Livro',
    billing: 'recurring',
    plans: [
      { name: 'Mensal', price: 39.9 },
      { name: 'Anual', price: 399, interval: 'year' },
    ],
  })
  return { oneTime, recurring }
}

export async function fillBuyer(page: Page, email: string) {
  await page.getByLabel('Nome completo').fill('Carla Compradora')
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('CPF ou CNPJ').fill(VALID_CPF)
  await page.getByLabel('Celular').fill('(21) 99876-5432')
}

/** A card as MercadoPago.js takes it; the fake's cardholder name decides the outcome (APRO). */
export async function fillMercadoPagoCard(page: Page, holder: string) {
  await page.getByLabel('Cartão de crédito').check()
  await page.getByLabel('Número do cartão').fill('4509 9535 6623 3704')
  await page.getByLabel('Nome impresso no cartão').fill(holder)
  await page.getByLabel('Validade (MM/AA)').fill('11/30')
  await page.getByLabel('CVV').fill('123')
}
