// PAYMENT_GATEWAY picks the payment adapter and PAYOUT_PROVIDER how withdrawals are paid out
// (SPEC §5a); config.ts has already refused a chosen adapter without its credentials.
import { createManualPayouts } from '../../payouts/manual.ts'
import type { PayoutProvider } from '../../payouts/provider.ts'
import type { PaymentGateway } from '../gateway.ts'
import { createSandboxGateway, type SandboxDeps } from './sandbox.ts'
import { createSandboxPayouts } from './sandbox-transfers.ts'

/** Built on another branch and wired in at merge; until then start-up says so plainly. */
function notBuilt(what: string): never {
  throw new Error(`${what} is not built into this version of Vitrine`)
}

export function createGateway(deps: SandboxDeps): PaymentGateway {
  switch (deps.config.paymentGateway) {
    case 'sandbox':
      return createSandboxGateway(deps)
    case 'asaas':
      return notBuilt('PAYMENT_GATEWAY=asaas')
    case 'mercadopago':
      return notBuilt('PAYMENT_GATEWAY=mercadopago')
  }
}

export function createPayouts(deps: SandboxDeps): PayoutProvider {
  switch (deps.config.payoutProvider) {
    case 'sandbox':
      return createSandboxPayouts(deps)
    case 'asaas':
      return notBuilt('PAYOUT_PROVIDER=asaas')
    case 'manual':
      return createManualPayouts()
  }
}
