// /dashboard/saldo: the balance explained, the withdrawal form, the PIX key, what the creator
// earns as an affiliate or co-producer elsewhere, and the withdrawals with their statuses.
import {
  affiliateBalance,
  coproducerBalance,
  creatorBalance,
} from '../../modules/ledger/balances.ts'
import { profileOf } from '../../modules/payouts/pix-keys.ts'
import { listWithdrawals } from '../../modules/payouts/withdrawals.ts'
import type { RouteModule } from '../../routes.ts'
import { creatorFigures, Figures, WithdrawForm } from './balance/figures.tsx'
import {
  AffiliateBalance,
  affiliateActive,
  CoproducerBalance,
  coproducerActive,
} from './balance/partners.tsx'
import { PixKey } from './balance/pix-key.tsx'
import { Withdrawals } from './balance/withdrawals.tsx'
import { dashboardPage } from './page.tsx'
import { Section } from './ui.tsx'

export const balancePage: RouteModule = (app, deps) =>
  dashboardPage(app, deps, { path: '/saldo', section: '/saldo' }, async ({ accountId, userId }) => {
    const [balance, profile, withdrawals, affiliate, coproducer] = await Promise.all([
      creatorBalance(deps.db, accountId),
      profileOf(deps.db, userId),
      listWithdrawals(deps.db, { userId }, { page: 1, limit: 50 }),
      affiliateBalance(deps.db, userId),
      coproducerBalance(deps.db, userId),
    ])
    return {
      title: 'Saldo e saques',
      body: (
        <>
          <Section id="t-saldo" title="Saldo">
            <Figures rows={creatorFigures(balance)} />
            <WithdrawForm
              url="/api/withdrawals"
              id="valor"
              pixKey={profile.pix_key}
              tenantId={accountId}
            />
          </Section>
          <Section id="t-pix" title="Chave Pix">
            <PixKey pix={profile} />
          </Section>
          {affiliateActive(affiliate) ? (
            <AffiliateBalance balance={affiliate} pixKey={profile.pix_key} />
          ) : null}
          {coproducerActive(coproducer) ? (
            <CoproducerBalance balance={coproducer} pixKey={profile.pix_key} />
          ) : null}
          <Section id="t-saques" title="Saques">
            <Withdrawals page={withdrawals} />
          </Section>
        </>
      ),
    }
  })
