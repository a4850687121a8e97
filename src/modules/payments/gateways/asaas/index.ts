// The Asaas adapter (docs/gateways/asaas.md, "Adapter"): the payment gateway and the payout
// provider, sharing one client and one notification reader.

import type { PayoutProvider } from '../../../payouts/provider.ts'
import type { PaymentGateway } from '../../gateway.ts'
import { readAsaasCallback } from './callback.ts'
import { cancelCharge, createCharge, getCharge } from './charges.ts'
import { type AsaasDeps, asaasContext } from './context.ts'
import { getRefund, refund } from './refunds.ts'
import { getTransfer, transferPix } from './transfers.ts'

export type { AsaasSettings } from './client.ts'
export type { AsaasDeps } from './context.ts'

export function createAsaasGateway(deps: AsaasDeps): PaymentGateway {
  const ctx = asaasContext(deps)
  return {
    name: 'asaas',
    // No browser tokenization at Asaas: the card crosses our server once (PCI SAQ D).
    cardEntry: { kind: 'card-data' },
    // Asaas' card tokenization (enabled per account) keeps the card for renewals.
    capabilities: { savesCards: true, boletoNeedsAddress: false },
    createCharge: (input) => createCharge(ctx, input),
    getCharge: (reference) => getCharge(ctx, reference),
    cancelCharge: (ref) => cancelCharge(ctx, ref),
    refund: (input) => refund(ctx, input),
    getRefund: (ref) => getRefund(ctx, ref),
    readCallback: (request) => readAsaasCallback(ctx, request),
  }
}

export function createAsaasPayouts(deps: AsaasDeps): PayoutProvider {
  const ctx = asaasContext(deps)
  return {
    name: 'asaas',
    automatic: true,
    transferPix: (input) => transferPix(ctx, input),
    getTransfer: (reference) => getTransfer(ctx, reference),
    // Reached only when the gateway is another one (the callback route asks the gateway first).
    readCallback: (request) => readAsaasCallback(ctx, request, { transfersOnly: true }),
  }
}
