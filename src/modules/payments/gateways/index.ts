// PAYMENT_GATEWAY picks the payment adapter and PAYOUT_PROVIDER how withdrawals are paid out
// (SPEC §5a); config.ts has already refused a chosen adapter without its credentials.
import { createManualPayouts } from '../../payouts/manual.ts'
import type { PayoutProvider } from '../../payouts/provider.ts'
import type { PaymentGateway } from '../gateway.ts'
import { createAsaasGateway, createAsaasPayouts } from './asaas/index.ts'
import { createMercadoPagoGateway } from './mercadopago/index.ts'
import { createSandboxGateway, type SandboxDeps } from './sandbox.ts'
import { createSandboxPayouts } from './sandbox-transfers.ts'

export function createGateway(deps: SandboxDeps): PaymentGateway {
  switch (deps.config.paymentGateway) {
    case 'sandbox':
      return createSandboxGateway(deps)
    case 'asaas':
      return createAsaasGateway(deps)
    case 'mercadopago':
      return createMercadoPagoGateway(deps)
  }
}

export function createPayouts(deps: SandboxDeps): PayoutProvider {
  switch (deps.config.payoutProvider) {
    case 'sandbox':
      return createSandboxPayouts(deps)
    case 'asaas':
      return createAsaasPayouts(deps)
    case 'manual':
      return createManualPayouts()
  }
}
