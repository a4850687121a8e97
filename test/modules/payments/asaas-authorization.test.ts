// Asaas' withdrawal validation: what Vitrine approves, on a real database (PGlite, or the
// PostgreSQL server of TEST_DATABASE_URL). The HTTP route is exercised in
// test/flows/asaas-journey.test.ts.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../../src/kit/db.ts'
import type { PixKeyType } from '../../../src/kit/db-schema.ts'
import { decideTransferAuthorization } from '../../../src/modules/payments/gateways/asaas/authorization.ts'
import { createTestDatabase, engine, type TestDatabase } from '../../setup/database.ts'

let testDb: TestDatabase
let db: Db
let userId: string

beforeAll(async () => {
  testDb = await createTestDatabase()
  db = testDb.database.db
  userId = randomUUID()
  await db
    .insertInto('users')
    .values({
      id: userId,
      name: 'Afiliada',
      email: `${userId}@example.com`,
      created_at: new Date(),
    })
    .execute()
})
afterAll(() => testDb?.drop())

async function withdrawal(
  overrides: Partial<{
    status: 'pending' | 'approved' | 'paid' | 'rejected'
    started: boolean
    pixKey: string
    pixKeyType: PixKeyType
  }> = {},
) {
  const id = randomUUID()
  const now = new Date()
  await db
    .insertInto('withdrawals')
    .values({
      id,
      role: 'affiliate',
      account_id: null,
      user_id: userId,
      amount_cents: 25_000,
      status: overrides.status ?? 'approved',
      pix_key: overrides.pixKey ?? '+5511987654321',
      pix_key_type: overrides.pixKeyType ?? 'phone',
      transfer_started_at: (overrides.started ?? true) ? now : null,
      created_at: now,
      updated_at: now,
    })
    .execute()
  return id
}

/** Asaas' request, as its docs show it (`{ type: "TRANSFER", transfer: {…} }`). */
function request(reference: unknown, value = 250, pixAddressKey: string | null = '11987654321') {
  return {
    type: 'TRANSFER',
    transfer: {
      object: 'transfer',
      id: randomUUID(),
      status: 'PENDING',
      value,
      externalReference: reference,
      operationType: 'PIX',
      bankAccount: { pixAddressKey },
    },
  }
}

describe(`Asaas withdrawal validation (${engine})`, () => {
  it('approves the transfer Vitrine started: same withdrawal, amount and key', async () => {
    const id = await withdrawal()
    expect(await decideTransferAuthorization(db, request(id))).toEqual({ status: 'APPROVED' })
    // The key at the root of the transfer is read too; an e-mail key compares without case.
    const email = await withdrawal({ pixKeyType: 'email', pixKey: 'ana@example.com' })
    const rooted = request(email, 250, null)
    Object.assign(rooted.transfer, { pixAddressKey: 'Ana@Example.com' })
    expect(await decideTransferAuthorization(db, rooted)).toEqual({ status: 'APPROVED' })
  })

  it.each([
    ['another amount', async () => request(await withdrawal(), 250.01), 'O valor difere do saque.'],
    [
      'another key',
      async () => request(await withdrawal(), 250, '11999999999'),
      'A chave Pix difere da do saque.',
    ],
    [
      'no key',
      async () => request(await withdrawal(), 250, null),
      'A chave Pix difere da do saque.',
    ],
    [
      'a transfer not started',
      async () => request(await withdrawal({ started: false })),
      'Este saque não está aguardando transferência.',
    ],
    [
      'a paid withdrawal',
      async () => request(await withdrawal({ status: 'paid' })),
      'Este saque não está aguardando transferência.',
    ],
    ['an unknown withdrawal', async () => request(randomUUID()), 'Saque desconhecido.'],
    ['no reference', async () => request(null), 'Transferência sem um saque da Vitrine.'],
    [
      'a reference that is not ours',
      async () => request('pedido-123'),
      'Transferência sem um saque da Vitrine.',
    ],
    [
      'a bill payment',
      async () => ({ type: 'BILL', bill: { id: 'x' } }),
      'Vitrine só autoriza transferências de saques.',
    ],
  ])('refuses %s', async (_, build, reason) => {
    expect(await decideTransferAuthorization(db, await build())).toEqual({
      status: 'REFUSED',
      refuseReason: reason,
    })
  })
})
