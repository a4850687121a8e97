import type { PaymentGateway } from '../gateway.ts'
import { createSandboxGateway, type SandboxDeps } from './sandbox.ts'

/** PAYMENT_GATEWAY picks the adapter; only the sandbox exists so far. */
export function createGateway(deps: SandboxDeps): PaymentGateway {
  switch (deps.config.paymentGateway) {
    case 'sandbox':
      return createSandboxGateway(deps)
  }
}
