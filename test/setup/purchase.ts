// Steps of a purchase as a buyer and the sandbox gateway take them, over HTTP.
import { randomBytes } from 'node:crypto'
import type { ApiClient, TestService } from './service.ts'

export const VALID_CPF = '529.982.247-25'

export async function createProduct(
  api: ApiClient,
  key: string,
  overrides: Record<string, unknown> = {},
) {
  const res = await api('POST', '/api/v1/products', {
    key,
    body: {
      name: 'Curso de Teste',
      slug: `curso-${randomBytes(4).toString('hex')}`,
      billing: 'one_time',
      plans: [{ name: 'Único', price: 97.9 }],
      ...overrides,
    },
  })
  if (res.status !== 201) throw new Error(`product: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.data
}

export async function checkout(
  api: ApiClient,
  productId: string,
  overrides: Record<string, unknown> = {},
) {
  return api('POST', '/api/checkout/create', {
    body: {
      product_id: productId,
      name: 'Beatriz Compradora',
      email: `comprador-${randomBytes(4).toString('hex')}@example.com`,
      cpf: VALID_CPF,
      phone: '(11) 98765-4321',
      payment_method: 'pix',
      ...overrides,
    },
  })
}

export async function pay(api: ApiClient, chargeId: string) {
  return api('POST', `/sandbox/charges/${chargeId}/pay`)
}

/** The one order a buyer's e-mail placed: its id and status. */
export function orderByEmail(svc: TestService, email: string) {
  return svc.deps.db
    .selectFrom('orders')
    .select(['id', 'status'])
    .where('buyer_email', '=', email)
    .executeTakeFirstOrThrow()
}
