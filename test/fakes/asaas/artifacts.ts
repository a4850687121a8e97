// What a buyer pays with: the Pix QR (`GET /payments/{id}/pixQrCode`) and the boleto line
// (`GET /payments/{id}/identificationField`), in real formats so an adapter's parsing is tested.
import { buildBoleto } from '../../../src/modules/payments/boleto.ts'
import { buildPixCopyPaste } from '../../../src/modules/payments/brcode.ts'
import { pixQrDataUrl } from '../../../src/modules/payments/qr.ts'
import type { Payment } from './book.ts'
import { fail } from './errors.ts'
import { addMonths } from './format.ts'

/** The fake account's own Pix key (a random "EVP" key). */
export const FAKE_PIX_KEY = '7d9f0335-8dcc-4054-9bf9-0dbd61d36906'
/** Asaas' own bank code (461); real boletos may be issued through partner banks. */
const BOLETO_BANK_CODE = '461'

function awaitingPayment(payment: Payment, kinds: string[], what: string): void {
  if (!kinds.includes(payment.billingType))
    fail(400, 'invalid_action', `Esta cobrança não permite pagamento por ${what}.`)
  if (payment.status !== 'PENDING' && payment.status !== 'OVERDUE')
    fail(400, 'invalid_action', 'Esta cobrança não está aguardando pagamento.')
}

/** Pix is enabled on PIX, BOLETO and UNDEFINED charges; the QR expires 12 months after due. */
export function pixQrCode(payment: Payment): Record<string, unknown> {
  awaitingPayment(payment, ['PIX', 'BOLETO', 'UNDEFINED'], 'Pix')
  const payload = buildPixCopyPaste({
    pixKey: FAKE_PIX_KEY,
    merchantName: 'Asaas Fake',
    merchantCity: 'Joinville',
    amountCents: payment.valueCents,
    txid: pixTxid(payment.id),
  })
  const image = pixQrDataUrl(payload)
  return {
    encodedImage: image.slice(image.indexOf(',') + 1),
    payload,
    expirationDate: `${addMonths(payment.dueDate, 12)} 23:59:59`,
    description: payment.description,
  }
}

/** The 47-digit digitable line (no punctuation), the 44-digit barcode and the nossoNumero. */
export function identificationField(payment: Payment): Record<string, unknown> {
  awaitingPayment(payment, ['BOLETO', 'UNDEFINED'], 'boleto')
  const nossoNumero = payment.nossoNumero!
  const boleto = buildBoleto({
    bankCode: BOLETO_BANK_CODE,
    amountCents: payment.valueCents,
    dueDate: new Date(`${payment.dueDate}T12:00:00Z`),
    freeField: nossoNumero.padStart(25, '0'),
  })
  return { identificationField: boleto.digitableLine, nossoNumero, barCode: boleto.barcode }
}

/** The Pix txid this fake writes for a payment: its id without the underscore. */
export function pixTxid(paymentId: string): string {
  return paymentId.replace(/[^A-Za-z0-9]/g, '').slice(0, 25)
}
