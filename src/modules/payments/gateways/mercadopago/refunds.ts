// Refunds: `POST /v1/payments/{id}/refunds {amount}` with our refund id as X-Idempotency-Key, so
// a retried refund is the same refund; `GET /v1/payments/{id}/refunds` to find it again.
import { toBrl } from '../../../../kit/money.ts'
import {
  GatewayRefused,
  type RefundInput,
  type RefundRef,
  type RefundResult,
} from '../../gateway.ts'
import { type MercadoPagoClient, MpNotFound } from './client.ts'

interface MpRefund {
  id: number
  payment_id: number
  amount: number
  status: string
}

/**
 * A PIX refund may stay in progress (contingency at the central bank); with this header Mercado
 * Pago answers 201 `in_process` instead of a 400 ("Refund of transactions with Pix").
 */
const RENDER_IN_PROCESS = { 'x-render-in-process-refunds': 'true' }

export async function refundPayment(
  client: MercadoPagoClient,
  input: RefundInput,
): Promise<RefundResult> {
  try {
    const refund = await client<MpRefund>({
      method: 'POST',
      path: `/v1/payments/${paymentId(input)}/refunds`,
      body: { amount: toBrl(input.amountCents) },
      idempotencyKey: input.reference,
      headers: RENDER_IN_PROCESS,
    })
    return resultOf(refund)
  } catch (error) {
    // Mercado Pago refused this refund (not refundable now, too old, more than is left): a
    // known end for the refund. Our credentials refused stays a refusal of the gateway's.
    if (error instanceof GatewayRefused && error.blame === 'input') {
      return { status: 'failed', gatewayRefundId: null, failureReason: error.reason }
    }
    if (error instanceof MpNotFound) {
      return { status: 'failed', gatewayRefundId: null, failureReason: PAYMENT_NOT_FOUND }
    }
    throw error
  }
}

const PAYMENT_NOT_FOUND = 'O Mercado Pago não encontrou o pagamento a estornar'

/**
 * Mercado Pago's refunds carry no reference of ours, so the one refund of a payment is ours:
 * Vitrine asks one refund per order (SPEC §7, "Refund already requested"). With none, the
 * gateway has none (null); with several, guessing could pay twice: the answer stays unknown.
 */
export async function findRefund(
  client: MercadoPagoClient,
  ref: RefundRef,
): Promise<RefundResult | null> {
  let refunds: MpRefund[]
  try {
    refunds = await client<MpRefund[]>({
      method: 'GET',
      path: `/v1/payments/${paymentId(ref)}/refunds`,
      headers: RENDER_IN_PROCESS,
    })
  } catch (error) {
    if (error instanceof MpNotFound) return null
    throw error
  }
  if (!Array.isArray(refunds) || refunds.length === 0) return null
  if (refunds.length > 1) {
    throw new Error(
      `Mercado Pago payment ${ref.gatewayChargeId} has ${refunds.length} refunds; which one is ${ref.reference} is unknown`,
    )
  }
  return resultOf(refunds[0]!)
}

function resultOf(refund: MpRefund): RefundResult {
  const id = String(refund.id)
  if (refund.status === 'approved') {
    return { status: 'completed', gatewayRefundId: id, failureReason: null }
  }
  if (refund.status === 'rejected' || refund.status === 'cancelled') {
    return {
      status: 'failed',
      gatewayRefundId: id,
      failureReason: 'O Mercado Pago não conseguiu concluir o estorno',
    }
  }
  // `in_process` (and anything new): accepted, not finished; looked up again later.
  return { status: 'pending', gatewayRefundId: id, failureReason: null }
}

function paymentId(ref: { gatewayChargeId: string }): string {
  if (!/^\d+$/.test(ref.gatewayChargeId)) {
    throw new GatewayRefused('Referência de pagamento do Mercado Pago inválida', 'input')
  }
  return ref.gatewayChargeId
}
