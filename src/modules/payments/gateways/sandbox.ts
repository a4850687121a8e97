// The sandbox gateway: issues real-format artifacts and confirms by calling the service back
// over HTTP, signed, exactly as a remote gateway would. Its books are the sandbox_charges table.
import type { Insertable, Selectable } from 'kysely'
import type { Config } from '../../../config.ts'
import type { Clock } from '../../../kit/clock.ts'
import { deriveKey, hmacHex, safeEqual } from '../../../kit/crypto.ts'
import type { Database } from '../../../kit/db.ts'
import type { DB } from '../../../kit/db-schema.ts'
import { luhnValid } from '../../../kit/documents.ts'
import { uuidv7 } from '../../../kit/ids.ts'
import { formatBrl } from '../../../kit/money.ts'
import { template } from '../../../kit/template.ts'
import { createWebhookSender } from '../../webhooks/sender.ts'
import { buildBoleto, dueDateAfter } from '../boleto.ts'
import { buildPixCopyPaste } from '../brcode.ts'
import type {
  CallbackAction,
  CallbackReading,
  ClosedChargeStatus,
  CreateChargeInput,
  GatewayCharge,
  GatewayChargeStatus,
  PaymentGateway,
  RefundInput,
  RefundRef,
  RefundResult,
} from '../gateway.ts'
import { boletoPdf } from './sandbox-boleto-pdf.ts'
import { loseFirstAnswer, reachOrThrow } from './sandbox-faults.ts'

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature'
const SANDBOX_DECLINE_REASON = 'Cartão recusado pelo banco emissor'
/**
 * The sandbox posts its callbacks as webhooks are posted (keep-alive node:http): global fetch
 * cost several times its CPU, which a launch-day run counts against the service it shares a
 * process with, where a real gateway's calls cost the service nothing to send.
 */
const callbackSender = createWebhookSender({ timeoutMs: 10_000 })

/** The sandbox merchant's PIX key (a random-type key, as the platform's own account would have). */
const SANDBOX_PIX_KEY = '7d9f0335-8dcc-4054-9bf9-0dbd61d36690'

export type SandboxEventType =
  | 'charge.paid'
  | 'charge.expired'
  | 'charge.chargeback'
  | 'charge.refunded'

const ACTIONS: Record<SandboxEventType, CallbackAction> = {
  'charge.paid': 'paid',
  'charge.expired': 'expired',
  'charge.chargeback': 'chargeback',
  'charge.refunded': 'refunded',
}

export interface SandboxDeps {
  config: Config
  database: Pick<Database, 'relaxed'>
  clock: Clock
  appSecret: string
}

/**
 * The sandbox's books (its charges, refunds and transfers), on the relaxed-commit pool
 * (kit/db.ts): they stand for a gateway's own database, which a real gateway keeps on its side
 * of the wire — two writes a purchase here, none with Asaas or Mercado Pago. A database crash
 * can lose only what nothing of the service's rests on yet: whatever the service records after
 * hearing from the sandbox commits durably, and that commit flushes the log up to it, the
 * sandbox's earlier writes included (the log is written in order).
 */
export const books = (deps: Pick<SandboxDeps, 'database'>) => deps.database.relaxed

export function sandboxSecret(deps: Pick<SandboxDeps, 'config' | 'appSecret'>): string {
  return deps.config.sandboxSecret ?? deriveKey(deps.appSecret, 'sandbox-callback').toString('hex')
}

export function signSandboxBody(secret: string, body: string): string {
  return `sha256=${hmacHex(secret, body)}`
}

type SandboxChargeRow = Omit<
  Required<Insertable<DB['sandbox_charges']>>,
  'refund_failure' | 'refund_answers_lost'
>

/** What a charge's answer is made of (sandboxChargeOf): the insert returns only these. */
const CHARGE_COLUMNS = [
  'id',
  'status',
  'amount_cents',
  'method',
  'expires_at',
  'created_at',
  'saved_card',
] as const

/**
 * The sandbox's two statements of every purchase, compiled once (kit/template.ts); each its own
 * transaction, which under load it shares with other callers' on the relaxed pool
 * (kit/pg-coalescer.ts), as a gateway's database batches its own writes.
 */
const insertSandboxCharge = template(
  (q, v: SandboxChargeRow) =>
    q
      .insertInto('sandbox_charges')
      .values({
        id: v.id,
        method: v.method,
        amount_cents: v.amount_cents,
        status: v.status,
        reference: v.reference,
        callback_url: v.callback_url,
        expires_at: v.expires_at,
        saved_card: v.saved_card,
        created_at: v.created_at,
      })
      .onConflict((oc) => oc.column('reference').doNothing())
      .returning(CHARGE_COLUMNS),
  { together: true },
)

const setSandboxStatus = template(
  (q, v: { id: string; status: string }) =>
    q
      .updateTable('sandbox_charges')
      .set({ status: v.status })
      .where('id', '=', v.id)
      .returning(['id', 'reference', 'amount_cents', 'callback_url']),
  { together: true },
)

export function createSandboxGateway(deps: SandboxDeps): PaymentGateway {
  const secret = sandboxSecret(deps)
  return {
    name: 'sandbox',
    cardEntry: { kind: 'test-token' },
    capabilities: { savesCards: true, boletoNeedsAddress: false },

    async createCharge(input: CreateChargeInput): Promise<GatewayCharge> {
      reachOrThrow(input.buyer.email)
      const now = deps.clock.now()
      const card = input.method === 'card' ? sandboxCardOutcome(input) : null
      // Idempotent per reference, like a real gateway's idempotency key: a retried call gets
      // the charge of the first one, so a card is never charged twice for one order.
      const [inserted] = await insertSandboxCharge(books(deps), {
        id: `sbx_${uuidv7(now.getTime()).replace(/-/g, '')}`,
        method: input.method,
        amount_cents: input.amountCents,
        // A card's outcome is decided when charged; PIX and boleto start pending.
        status: card ? (card.approved ? 'paid' : 'failed') : 'pending',
        reference: input.reference,
        callback_url: `http://127.0.0.1:${deps.config.port}/api/payments/callback/sandbox`,
        expires_at: input.method === 'pix' ? input.expiresAt : null,
        saved_card: card?.approved ? card.saved : null,
        created_at: now,
      })
      loseFirstAnswer(input.buyer.email, input.reference)
      return inserted
        ? sandboxChargeOf(deps, inserted)
        : (await findSandboxCharge(deps, input.reference))!
    },

    getCharge: (reference) => findSandboxCharge(deps, reference),

    async cancelCharge(input) {
      // A pending charge is canceled; a paid card is voided (the authorization released); a
      // paid PIX or boleto is refunded in full. Anything else already holds no money.
      const row = await books(deps)
        .updateTable('sandbox_charges')
        .set((eb) => ({
          status: eb
            .case()
            .when('status', '=', 'pending')
            .then('canceled')
            .when(eb.and([eb('status', '=', 'paid'), eb('method', '=', 'card')]))
            .then('canceled')
            .when('status', '=', 'paid')
            .then('refunded')
            .else(eb.ref('status'))
            .end(),
        }))
        .where('id', '=', input.gatewayChargeId)
        .where('reference', '=', input.reference)
        .returning('status')
        .executeTakeFirst()
      return (row?.status ?? 'canceled') as ClosedChargeStatus
    },

    refund: (input) => refundSandboxCharge(deps, input),

    getRefund: (input) => findSandboxRefund(deps, input),

    // The sandbox's callback carries its own state, signed: nothing to read back.
    async readCallback({ rawBody, headers }): Promise<CallbackReading | null> {
      const signature = headers[SANDBOX_SIGNATURE_HEADER]
      if (typeof signature !== 'string') return null
      if (!safeEqual(signature, signSandboxBody(secret, rawBody.toString('utf8')))) return null
      const body = JSON.parse(rawBody.toString('utf8')) as SandboxCallbackBody
      return {
        kind: 'charge',
        callback: {
          eventId: body.id,
          gatewayChargeId: body.charge_id,
          action: ACTIONS[body.type] ?? 'ignored',
          amountCents: body.amount_cents,
          payload: body,
        },
      }
    },
  }
}

/**
 * The sandbox's test cards. `tok_approved` is approved and saved as `card_approved`, which every
 * later charge (a renewal) approves; `tok_fails_later` is approved once and saved as
 * `card_fails`, which later charges decline (like Stripe's 4000 0000 0000 0341);
 * `tok_declined` and anything unknown are declined.
 */
function sandboxCardOutcome(input: CreateChargeInput): { approved: boolean; saved: string | null } {
  if (input.savedCard) return { approved: input.savedCard === 'card_approved', saved: null }
  if (input.cardToken === 'tok_approved') return { approved: true, saved: 'card_approved' }
  if (input.cardToken === 'tok_fails_later') return { approved: true, saved: 'card_fails' }
  return { approved: false, saved: null }
}

/** The charge made for an order, as the sandbox's books hold it (what a lookup answers). */
async function findSandboxCharge(
  deps: Pick<SandboxDeps, 'database' | 'config'>,
  reference: string,
): Promise<GatewayCharge | null> {
  const row = await books(deps)
    .selectFrom('sandbox_charges')
    .selectAll()
    .where('reference', '=', reference)
    .executeTakeFirst()
  return row ? sandboxChargeOf(deps, row) : null
}

function sandboxChargeOf(
  deps: Pick<SandboxDeps, 'config'>,
  row: Pick<Selectable<DB['sandbox_charges']>, (typeof CHARGE_COLUMNS)[number]>,
): GatewayCharge {
  const status = row.status as GatewayChargeStatus
  return {
    gatewayChargeId: row.id,
    status,
    amountCents: row.amount_cents,
    pix:
      row.method === 'pix'
        ? {
            copyPaste: buildPixCopyPaste({
              pixKey: SANDBOX_PIX_KEY,
              merchantName: 'VITRINE SANDBOX',
              merchantCity: 'SAO PAULO',
              amountCents: row.amount_cents,
              txid: row.id.slice(-25),
            }),
            expiresAt: row.expires_at ?? row.created_at,
          }
        : null,
    boleto:
      row.method === 'boleto'
        ? {
            ...sandboxBoleto(row.id, row.amount_cents, row.created_at),
            url: sandboxBoletoPdfUrl(deps.config.baseUrl, row.id),
          }
        : null,
    card:
      row.method === 'card'
        ? status === 'failed'
          ? { status: 'declined', last4: '4242', declineReason: SANDBOX_DECLINE_REASON }
          : { status: 'approved', last4: '4242', declineReason: null }
        : null,
    savedCard: row.saved_card,
  }
}

const BOLETO_DUE_DAYS = 3
const SANDBOX_BANK = '999'

/** The "nosso número" and the rest of the free field come from the charge id's digits. */
function sandboxBoleto(chargeId: string, amountCents: number, now: Date) {
  const due = dueDateAfter(now, BOLETO_DUE_DAYS)
  const freeField = BigInt(`0x${chargeId.replace(/^sbx_/, '')}`)
    .toString()
    .slice(-25)
    .padStart(25, '0')
  const boleto = buildBoleto({ bankCode: SANDBOX_BANK, amountCents, dueDate: due, freeField })
  return {
    barcode: boleto.barcode,
    digitableLine: boleto.digitableLine,
    dueDate: due.toISOString().slice(0, 10),
  }
}

/** Where the sandbox serves a charge's printable boleto (sandbox-routes.ts). */
export const sandboxBoletoPdfUrl = (baseUrl: string, chargeId: string) =>
  `${baseUrl}/sandbox/boletos/${chargeId}.pdf`

/** A boleto charge's printable PDF, or null for another charge or an unknown id. */
export async function sandboxBoletoPdf(
  deps: Pick<SandboxDeps, 'database'>,
  chargeId: string,
): Promise<Buffer | null> {
  const row = await books(deps)
    .selectFrom('sandbox_charges')
    .selectAll()
    .where('id', '=', chargeId)
    .executeTakeFirst()
  if (row?.method !== 'boleto') return null
  const boleto = sandboxBoleto(row.id, row.amount_cents, row.created_at)
  return boletoPdf([
    'Boleto de teste - Vitrine (sandbox)',
    `Valor: ${formatBrl(row.amount_cents)}`,
    `Vencimento: ${boleto.dueDate.split('-').reverse().join('/')}`,
    `Linha digitavel: ${boleto.digitableLine}`,
    'Documento de teste: nao pague em um banco de verdade.',
  ])
}

export interface SandboxCallbackBody {
  id: string
  type: SandboxEventType
  charge_id: string
  reference: string
  amount_cents: number
  created_at: string
}

/**
 * The gateway side of a sandbox control: marks its own charge and calls the service back.
 * Returns the HTTP status the service answered with (null when told not to call back).
 */
export async function sendSandboxCallback(
  deps: SandboxDeps,
  chargeId: string,
  type: SandboxEventType,
  opts: { notify?: boolean } = {},
): Promise<{ orderId: string; callbackStatus: number | null } | null> {
  const [charge] = await setSandboxStatus(books(deps), {
    id: chargeId,
    status: type.replace('charge.', ''),
  })
  if (!charge) return null
  const now = deps.clock.now()
  // A notification lost on its way: the gateway's books changed, the service heard nothing.
  if (opts.notify === false) return { orderId: charge.reference, callbackStatus: null }
  const body = JSON.stringify({
    id: `evt_${uuidv7(now.getTime()).replace(/-/g, '')}`,
    type,
    charge_id: charge.id,
    reference: charge.reference,
    amount_cents: charge.amount_cents,
    created_at: now.toISOString(),
  } satisfies SandboxCallbackBody)
  const sent = await callbackSender.send(charge.callback_url, body, {
    [SANDBOX_SIGNATURE_HEADER]: signSandboxBody(sandboxSecret(deps), body),
  })
  if (sent.statusCode === null) throw new Error(`sandbox callback not delivered: ${sent.error}`)
  return { orderId: charge.reference, callbackStatus: sent.statusCode }
}

const TOKENS: Record<string, string> = {
  '4000000000000002': 'tok_declined',
  '4000000000000341': 'tok_fails_later',
}

/** The sandbox's tokenization: a valid test card becomes `tok_approved` or `tok_declined`. */
export function tokenizeSandboxCard(
  card: { number: string; expiry: string; cvv: string },
  now: Date,
) {
  const number = card.number.replace(/\D/g, '')
  const expiry = /^(\d{2})\s*\/\s*(\d{2})$/.exec(card.expiry.trim())
  if (
    number.length < 13 ||
    number.length > 19 ||
    !luhnValid(number) ||
    !expiry ||
    !/^\d{3,4}$/.test(card.cvv)
  ) {
    return null
  }
  const month = Number(expiry[1])
  const endOfMonth = Date.UTC(2000 + Number(expiry[2]), month, 1)
  if (month < 1 || month > 12 || endOfMonth <= now.getTime()) return null
  return {
    token: TOKENS[number] ?? 'tok_approved',
    last4: number.slice(-4),
  }
}

const REFUND_REFUSED: Record<string, string> = {
  chargeback: 'A cobrança foi contestada pelo comprador (chargeback)',
  refunded: 'A cobrança já foi estornada',
}

const refundAnswer = (row: {
  id: string
  status: 'completed' | 'failed'
  failure_reason: string | null
}): RefundResult => ({
  status: row.status,
  gatewayRefundId: row.status === 'completed' ? `sbr_${row.id.replace(/-/g, '')}` : null,
  failureReason: row.failure_reason,
})

const storedRefund = (deps: Pick<SandboxDeps, 'database'>, reference: string) =>
  books(deps)
    .selectFrom('sandbox_refunds')
    .selectAll()
    .where('id', '=', reference)
    .executeTakeFirst()

/** While a charge's refund answers are lost (sandbox control), every refund call throws. */
async function refundAnswersReachUs(deps: Pick<SandboxDeps, 'database'>, chargeId: string) {
  const charge = await books(deps)
    .selectFrom('sandbox_charges')
    .select('refund_answers_lost')
    .where('id', '=', chargeId)
    .executeTakeFirst()
  if (charge?.refund_answers_lost) throw new Error('sandbox: refund answer lost')
}

/** The refund asked with this reference, or null when the sandbox never made one. */
async function findSandboxRefund(deps: Pick<SandboxDeps, 'database'>, input: RefundRef) {
  await refundAnswersReachUs(deps, input.gatewayChargeId)
  const known = await storedRefund(deps, input.reference)
  return known ? refundAnswer(known) : null
}

/**
 * The sandbox's refund: a paid charge is refunded once; a charge charged back, already
 * refunded or never paid is refused, and so is any refund of a charge marked by
 * `POST /sandbox/charges/{id}/fail-refunds`. The answer is kept per refund reference. While
 * the charge's refund answers are lost, the refund is made but the call throws.
 */
async function refundSandboxCharge(deps: SandboxDeps, input: RefundInput): Promise<RefundResult> {
  const result = await makeSandboxRefund(deps, input)
  await refundAnswersReachUs(deps, input.gatewayChargeId)
  return result
}

async function makeSandboxRefund(deps: SandboxDeps, input: RefundInput): Promise<RefundResult> {
  const known = await storedRefund(deps, input.reference)
  if (known) return refundAnswer(known)
  const charge = await books(deps)
    .selectFrom('sandbox_charges')
    .selectAll()
    .where('id', '=', input.gatewayChargeId)
    .executeTakeFirst()
  let failure: string | null = null
  if (!charge) failure = 'Cobrança não encontrada'
  else if (charge.refund_failure) failure = charge.refund_failure
  else if (charge.status !== 'paid')
    failure = REFUND_REFUSED[charge.status] ?? 'A cobrança não foi paga'
  else if (input.amountCents > charge.amount_cents) failure = 'Valor maior que o da cobrança'
  const row = {
    id: input.reference,
    charge_id: input.gatewayChargeId,
    amount_cents: input.amountCents,
    status: failure ? ('failed' as const) : ('completed' as const),
    failure_reason: failure,
    created_at: deps.clock.now(),
  }
  const inserted = await books(deps)
    .insertInto('sandbox_refunds')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .returningAll()
    .executeTakeFirst()
  if (!inserted) return makeSandboxRefund(deps, input)
  if (!failure) {
    await books(deps)
      .updateTable('sandbox_charges')
      .set({ status: 'refunded' })
      .where('id', '=', input.gatewayChargeId)
      .execute()
  }
  return refundAnswer(inserted)
}

/** Sandbox control: every later refund of this charge fails (the buyer's account is closed). */
export async function failSandboxRefunds(deps: Pick<SandboxDeps, 'database'>, chargeId: string) {
  const reason = 'A conta do comprador para devolução está encerrada'
  const res = await books(deps)
    .updateTable('sandbox_charges')
    .set({ refund_failure: reason })
    .where('id', '=', chargeId)
    .executeTakeFirst()
  return res.numUpdatedRows > 0n ? reason : null
}

/** Sandbox control: the answers of this charge's refund calls are lost (or arrive again). */
export async function loseSandboxRefundAnswers(
  deps: Pick<SandboxDeps, 'database'>,
  chargeId: string,
  lost: boolean,
) {
  const res = await books(deps)
    .updateTable('sandbox_charges')
    .set({ refund_answers_lost: lost })
    .where('id', '=', chargeId)
    .executeTakeFirst()
  return res.numUpdatedRows > 0n
}
