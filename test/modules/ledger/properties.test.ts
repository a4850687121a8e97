// Property test: random sequences of sales (plain, through an affiliate, co-produced), unpaid
// and expired orders, refunds (completed, failed, left pending, refused), chargebacks,
// withdrawals (through the ledger contract), releases and settlements. After every step the
// balances equal an independent model; after every run the seed formulas recomputed the slow
// way equal the balances and the ledger, the ledger sums to zero, and no withdrawal ever made
// an available balance negative. Workers are off (hourly): the test runs the refund worker.
import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTx } from '../../../src/kit/db.ts'
import {
  type Holder,
  holdWithdrawal,
  lockAvailable,
  releaseWithdrawal,
  settleWithdrawal,
} from '../../../src/modules/ledger/service.ts'
import { expireOrder } from '../../../src/modules/payments/expire.ts'
import { processRefund } from '../../../src/modules/refunds/jobs.ts'
import { signupCreator } from '../../setup/actors.ts'
import { expectBooksExact } from '../../setup/ledger.ts'
import { checkout, createProduct, pay } from '../../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../../setup/service.ts'

// ---- the model: money by the SPEC's rules, computed independently of src/ ----------------

/** Round half up of amount × bps / 10000 (written differently from src/kit/money.ts). */
const pct = (amount: number, bps: number) => Math.floor((2 * amount * bps + 10_000) / 20_000)

type CreatorName = 'X' | 'Y'
type SplitName = 'K' | 'L'
type Name = CreatorName | 'A' | SplitName

interface Product {
  id: string
  account: CreatorName
  plans: { id: string; cents: number }[]
  affiliate: { code: string; bps: number } | null
  splits: { holder: SplitName; bps: number }[]
}
interface Order {
  id: string
  chargeId: string
  account: CreatorName
  amount: number
  commission: number | null
  splits: { holder: SplitName; cents: number }[]
  creator: number
  status: 'pending' | 'paid' | 'refunded' | 'chargeback' | 'expired'
  refund: { id: string; status: 'pending' | 'completed' | 'failed' } | null
  refundsBlocked: boolean
}

/** One record per holder; each holder kind uses the fields of its seed balance. */
const blank = () => ({ paid: 0, refunded: 0, rejected: 0, pending: 0, withdrawn: 0, available: 0 })
const balances: Record<Name, ReturnType<typeof blank>> = {
  X: blank(),
  Y: blank(),
  A: blank(),
  K: blank(),
  L: blank(),
}
const orders: Order[] = []
const withdrawals: { id: string; holder: Name; amount: number; status: string }[] = []

function earn(o: Order) {
  const c = balances[o.account]
  c.paid += o.amount
  c.available += o.creator
  if (o.commission !== null) {
    balances.A.paid += o.commission
    balances.A.pending -= 1
    balances.A.available += o.commission
  }
  for (const s of o.splits) {
    balances[s.holder].paid += s.cents // earned_total
    balances[s.holder].available += s.cents
  }
}

/** A refund or chargeback (sign 1), or a failed refund undone (−1): each takes its own share. */
function reverse(o: Order, sign: 1 | -1) {
  const c = balances[o.account]
  c.refunded += sign * o.amount
  c.available -= sign * o.creator
  if (o.commission !== null) {
    balances.A.paid -= sign * o.commission
    balances.A.rejected += sign * o.commission
    balances.A.available -= sign * o.commission
  }
  for (const s of o.splits) {
    balances[s.holder].refunded += sign * s.cents
    balances[s.holder].available -= sign * s.cents
  }
}

// ---- the world ----------------------------------------------------------------------------

let svc: TestService
const products: Product[] = []
const keys = {} as Record<CreatorName, string>
const holders = {} as Record<Name, Holder>

beforeAll(async () => {
  svc = await startTestService({ WORKER_POLL_MS: '1h' })
  const scopes = ['write:products', 'read:orders', 'refunds:create', 'read:payouts']
  const x = await signupCreator(svc.api, 'Xavier')
  const y = await signupCreator(svc.api, 'Yara')
  keys.X = await x.key(scopes)
  keys.Y = await y.key(scopes)
  holders.X = { kind: 'creator', accountId: x.accountId }
  holders.Y = { kind: 'creator', accountId: y.accountId }
  const tag = randomUUID().slice(0, 8)
  const email = (name: string) => `${name}-${tag}@example.com`

  async function product(
    account: CreatorName,
    prices: number[],
    affiliateBps: number | null,
    splits: { holder: SplitName; bps: number }[],
  ) {
    const key = keys[account]
    const p = await createProduct(svc.api, key, {
      plans: prices.map((price, i) => ({ name: `Plano ${i}`, price })),
    })
    let affiliate: Product['affiliate'] = null
    if (affiliateBps !== null) {
      const res = await svc.api('POST', `/api/v1/products/${p.id}/affiliates`, {
        key,
        body: { email: email('a'), commission_percent: affiliateBps / 100 },
      })
      affiliate = { code: res.body.data.code, bps: affiliateBps }
      holders.A = { kind: 'affiliate', userId: res.body.data.user_id }
    }
    for (const s of splits) {
      const res = await svc.api('POST', `/api/v1/products/${p.id}/coproducers`, {
        key,
        body: { email: email(s.holder.toLowerCase()), split_percent: s.bps / 100 },
      })
      holders[s.holder] = { kind: 'coproducer', userId: res.body.data.user_id }
    }
    products.push({
      id: p.id,
      account,
      plans: p.plans.map((plan: { id: string; price: number }) => ({
        id: plan.id,
        cents: Math.round(plan.price * 100),
      })),
      affiliate,
      splits,
    })
  }
  await product('X', [97.9, 0.03, 1234.57], null, [])
  await product('X', [100, 33.33, 0.01], 1250, [{ holder: 'K', bps: 3000 }])
  await product('Y', [250, 19.99, 0.05], 777, [
    { holder: 'K', bps: 2000 },
    { holder: 'L', bps: 8000 },
  ])
})
afterAll(() => svc?.stop())

// ---- steps --------------------------------------------------------------------------------

const Op = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('sale' as const),
      product: fc.nat(2),
      plan: fc.nat(2),
      affiliate: fc.boolean(),
      pay: fc.nat(9).map((n) => n > 0),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('refund' as const),
      pick: fc.nat(),
      anyOrder: fc.nat(4).map((n) => n === 0),
      outcome: fc.constantFrom('complete', 'fail', 'pending'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('finish' as const),
      pick: fc.nat(),
      outcome: fc.constantFrom('complete', 'fail'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('chargeback' as const),
      pick: fc.nat(),
      anyOrder: fc.nat(4).map((n) => n === 0),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('expire' as const), pick: fc.nat() }) },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('withdraw' as const),
      holder: fc.constantFrom<Name>('X', 'Y', 'A', 'K', 'L'),
      // Often everything (so later reversals meet withdrawn money), sometimes 1 centavo too much.
      size: fc.oneof(
        fc.constant('all' as const),
        fc.constant('over' as const),
        fc.double({ min: 0, max: 1, noNaN: true }),
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constantFrom('release' as const, 'settle' as const),
      pick: fc.nat(),
    }),
  },
)
type Op = typeof Op extends fc.Arbitrary<infer T> ? T : never

const pick = <T>(list: T[], n: number) => (list.length ? list[n % list.length] : undefined)
const inTx = <T>(fn: (tx: Parameters<Parameters<typeof withTx>[1]>[0]) => Promise<T>) =>
  withTx(svc.deps.db, fn)

async function sale(op: Extract<Op, { op: 'sale' }>) {
  const product = products[op.product]!
  const plan = product.plans[op.plan]!
  const viaAffiliate = op.affiliate && product.affiliate !== null
  const res = await checkout(svc.api, product.id, {
    plan_id: plan.id,
    ...(viaAffiliate ? { affiliate_code: product.affiliate!.code } : {}),
  })
  expect(res.status).toBe(201)
  const commission = viaAffiliate ? pct(plan.cents, product.affiliate!.bps) : null
  let left = plan.cents - (commission ?? 0)
  const base = left
  const splits = product.splits.map((s) => {
    const cents = Math.min(pct(base, s.bps), left)
    left -= cents
    return { holder: s.holder, cents }
  })
  const order: Order = {
    id: res.body.order_id,
    chargeId: res.body.charge_id,
    account: product.account,
    amount: plan.cents,
    commission,
    splits,
    creator: left,
    status: 'pending',
    refund: null,
    refundsBlocked: false,
  }
  orders.push(order)
  if (commission !== null) balances.A.pending += 1
  if (!op.pay) return
  expect((await pay(svc.api, order.chargeId)).body.callback_status).toBe(200)
  order.status = 'paid'
  earn(order)
  const shown = await svc.api('GET', `/api/v1/orders/${order.id}`, { key: keys[order.account] })
  expect(shown.body.data.affiliate_commission).toBe(commission === null ? null : commission / 100)
}

async function finish(order: Order, outcome: 'complete' | 'fail') {
  if (outcome === 'fail' && !order.refundsBlocked) {
    await svc.api('POST', `/sandbox/charges/${order.chargeId}/fail-refunds`)
    order.refundsBlocked = true
  }
  await processRefund(svc.deps, order.refund!.id)
  if (order.refundsBlocked) {
    order.refund!.status = 'failed'
    reverse(order, -1)
  } else {
    order.refund!.status = 'completed'
    order.status = 'refunded'
  }
}

/** Mostly a paid order (the interesting case), sometimes any order (the refusals). */
const target = (op: { pick: number; anyOrder: boolean }) =>
  pick(op.anyOrder ? orders : orders.filter((o) => o.status === 'paid'), op.pick)

async function refund(op: Extract<Op, { op: 'refund' }>) {
  const order = target(op)
  if (!order) return
  const res = await svc.api('POST', `/api/v1/orders/${order.id}/refund`, {
    key: keys[order.account],
    body: { reason: 'Propriedade' },
  })
  if (order.refund && order.refund.status !== 'failed') {
    expect(res.body).toEqual({ error: 'Refund already requested' })
  } else if (order.status !== 'paid') {
    expect(res.body).toEqual({ error: 'Order is not paid' })
  } else if (order.creator > 0 && balances[order.account].available < order.creator) {
    expect(res.body).toEqual({ error: 'Saldo insuficiente para reembolsar este pedido' })
  } else {
    expect(res.status).toBe(201)
    order.refund = { id: res.body.data.id, status: 'pending' }
    reverse(order, 1)
    if (op.outcome !== 'pending') await finish(order, op.outcome)
  }
}

async function chargeback(op: Extract<Op, { op: 'chargeback' }>) {
  const order = target(op)
  if (!order) return
  const res = await svc.api('POST', `/sandbox/charges/${order.chargeId}/chargeback`)
  expect(res.body.callback_status).toBe(200)
  if (order.status !== 'paid') return
  if (order.refund?.status === 'pending') order.refund.status = 'failed'
  else reverse(order, 1)
  order.status = 'chargeback'
}

async function withdraw(op: Extract<Op, { op: 'withdraw' }>) {
  const holder = holders[op.holder]
  const model = balances[op.holder]
  const room = Math.max(model.available, 0)
  const amount =
    op.size === 'all'
      ? Math.max(1, room)
      : op.size === 'over'
        ? room + 1
        : Math.max(1, Math.floor(op.size * room))
  const id = randomUUID()
  const attempt = inTx(async (tx) => {
    expect(await lockAvailable(tx, holder)).toBe(model.available)
    await holdWithdrawal(tx, svc.deps, { holder, withdrawalId: id, amountCents: amount })
    return lockAvailable(tx, holder)
  })
  if (amount > model.available) {
    await expect(attempt).rejects.toThrow('Saldo insuficiente')
    return
  }
  // No withdrawal ever makes an available balance negative.
  expect(await attempt).toBeGreaterThanOrEqual(0)
  model.withdrawn += amount
  model.available -= amount
  withdrawals.push({ id, holder: op.holder, amount, status: 'held' })
}

async function step(op: Op) {
  switch (op.op) {
    case 'sale':
      return sale(op)
    case 'refund':
      return refund(op)
    case 'finish': {
      const order = pick(
        orders.filter((o) => o.refund?.status === 'pending'),
        op.pick,
      )
      return order && finish(order, op.outcome)
    }
    case 'chargeback':
      return chargeback(op)
    case 'expire': {
      const order = pick(
        orders.filter((o) => o.status === 'pending'),
        op.pick,
      )
      if (!order) return
      expect(await inTx((tx) => expireOrder(tx, svc.deps, order.id))).toBe(true)
      order.status = 'expired'
      if (order.commission !== null) balances.A.pending -= 1
      return
    }
    case 'withdraw':
      return withdraw(op)
    case 'release':
    case 'settle': {
      const w = pick(
        withdrawals.filter((x) => x.status === 'held'),
        op.pick,
      )
      if (!w) return
      const input = { withdrawalId: w.id }
      if (op.op === 'release') {
        await inTx((tx) => releaseWithdrawal(tx, svc.deps, input))
        balances[w.holder].withdrawn -= w.amount
        balances[w.holder].available += w.amount
        w.status = 'released'
      } else {
        await inTx((tx) => settleWithdrawal(tx, svc.deps, input))
        w.status = 'settled'
      }
    }
  }
}

// ---- checks -------------------------------------------------------------------------------

const row = (table: 'affiliate_balance_view' | 'coproducer_balance_view', userId: string) =>
  svc.deps.db.selectFrom(table).selectAll().where('user_id', '=', userId).executeTakeFirst()

/** The balances the service keeps equal the model (cheap: one row per holder). */
async function matchesModel() {
  for (const name of ['X', 'Y'] as const) {
    const h = holders[name] as { accountId: string }
    const got = await svc.deps.db
      .selectFrom('creator_balance_view')
      .selectAll()
      .where('account_id', '=', h.accountId)
      .executeTakeFirst()
    const m = balances[name]
    expect({
      name,
      paid: got?.paid_total ?? 0,
      refunded: got?.refunded_total ?? 0,
      available: got?.available ?? 0,
    }).toEqual({
      name,
      paid: m.paid,
      refunded: m.refunded,
      available: m.available,
    })
  }
  const a = await row('affiliate_balance_view', (holders.A as { userId: string }).userId)
  const m = balances.A
  expect(
    a ?? { paid_total: 0, rejected_total: 0, pending_count: 0, withdrawn: 0, available: 0 },
  ).toMatchObject({
    paid_total: m.paid,
    rejected_total: m.rejected,
    pending_count: m.pending,
    withdrawn: m.withdrawn,
    available: m.available,
  })
  for (const name of ['K', 'L'] as const) {
    const c = await row('coproducer_balance_view', (holders[name] as { userId: string }).userId)
    const mm = balances[name]
    expect({
      name,
      ...(c ?? { earned_total: 0, refunded_total: 0, withdrawn: 0, available: 0 }),
    }).toMatchObject({
      name,
      earned_total: mm.paid,
      refunded_total: mm.refunded,
      withdrawn: mm.withdrawn,
      available: mm.available,
    })
  }
}

const idOf = (name: Name) => {
  const h = holders[name]
  return h.kind === 'creator' ? h.accountId : h.userId
}

describe(`ledger properties over random money histories (${engine})`, () => {
  // Hundreds of money flows per run: give a loaded two-core machine room.
  it('balances follow the model; seed formulas = slow recomputation = ledger; ledger sums to zero', {
    timeout: 120_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(Op, { minLength: 4, maxLength: 12 }), async (ops) => {
        for (const op of ops) {
          await step(op)
          await matchesModel()
        }
        await expectBooksExact(svc.deps.db, {
          accounts: [idOf('X'), idOf('Y')],
          affiliates: [idOf('A')],
          coproducers: [idOf('K'), idOf('L')],
        })
      }),
      { numRuns: Number(process.env.LEDGER_PROPERTY_RUNS ?? 25), endOnFailure: true },
    )
  })
})
