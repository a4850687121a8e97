// PAYOUT_PROVIDER=manual: nothing is paid out automatically. The admin sends the PIX from the
// platform's bank by hand, then marks the withdrawal paid with the transfer's end-to-end id
// (withdrawals.ts payWithdrawal); no transfer is ever asked of a provider.
import type { PayoutProvider } from './provider.ts'

export function createManualPayouts(): PayoutProvider {
  return {
    name: 'manual',
    automatic: false,
    transferPix() {
      throw new Error('manual payouts make no transfers: the admin records the end-to-end id')
    },
    // Nothing was asked of anyone, so there is never a transfer to look up.
    getTransfer: async () => null,
  }
}
