import type { PayoutProvider } from '../../payouts/provider.ts'
import type { PaymentGateway } from '../gateway.ts'
import { createSandboxGateway, type SandboxDeps } from './sandbox.ts'
import { createSandboxPayouts } from './sandbox-transfers.ts'

/** PAYMENT_GATEWAY picks the adapter; only the sandbox exists so far. */
export function createGateway(deps: SandboxDeps): PaymentGateway {
  switch (deps.config.paymentGateway) {
    case 'sandbox':
      return createSandboxGateway(deps)
  }
}

/** PAYOUT_PROVIDER picks how withdrawals are paid out; only the sandbox exists so far. */
export function createPayouts(deps: SandboxDeps): PayoutProvider {
  return createSandboxPayouts(deps)
}
