// What the creator earns on other creators' products, as an affiliate or a co-producer (SPEC §8,
// the seed's fields), each with its own withdrawal form (POST /api/affiliates|coproducers/withdraw).
import type { VNode } from 'preact'
import type { affiliateBalance, coproducerBalance } from '../../../modules/ledger/balances.ts'
import { brl, type Data, Section } from '../ui.tsx'
import { Figures, WithdrawForm } from './figures.tsx'

type Affiliate = Data<typeof affiliateBalance>
type Coproducer = Data<typeof coproducerBalance>

/** Shown only once there is something in it: anyone has these balances, at zero. */
export const affiliateActive = (b: Affiliate) =>
  b.paid_total > 0 || b.rejected_total > 0 || b.pending_count > 0 || b.withdrawn > 0
export const coproducerActive = (b: Coproducer) =>
  b.earned_total > 0 || b.refunded_total > 0 || b.withdrawn > 0

export function AffiliateBalance(props: { balance: Affiliate; pixKey: string | null }): VNode {
  const b = props.balance
  const rows = [
    {
      label: 'Disponível para saque',
      amount: brl(b.available),
      explain: 'Comissões de pedidos pagos menos o que você já sacou.',
    },
    {
      label: 'Comissões pagas',
      amount: brl(b.paid_total),
      explain: 'Comissões de vendas pagas feitas pelos seus links.',
    },
    {
      label: 'Comissões canceladas',
      amount: brl(b.rejected_total),
      explain: 'Comissões de pedidos reembolsados ou contestados.',
    },
    {
      label: 'Já sacado',
      amount: brl(b.withdrawn),
      explain: 'Saques de comissões pendentes, aprovados ou pagos.',
    },
  ]
  return (
    <Section id="t-afiliado" title="Comissões como afiliado">
      <Figures rows={rows} />
      {b.pending_count > 0 ? (
        <p class="muted">
          {b.pending_count === 1
            ? '1 pedido feito pelo seu link aguarda pagamento.'
            : `${b.pending_count} pedidos feitos pelos seus links aguardam pagamento.`}
        </p>
      ) : null}
      <WithdrawForm url="/api/affiliates/withdraw" id="valor-afiliado" pixKey={props.pixKey} />
    </Section>
  )
}

export function CoproducerBalance(props: { balance: Coproducer; pixKey: string | null }): VNode {
  const b = props.balance
  const rows = [
    {
      label: 'Disponível para saque',
      amount: brl(b.available),
      explain: 'Sua parte nas vendas menos estornos e o que você já sacou.',
    },
    {
      label: 'Ganho como coprodutor',
      amount: brl(b.earned_total),
      explain: 'Sua parte nas vendas pagas dos produtos em que você é coprodutor.',
    },
    {
      label: 'Estornado',
      amount: brl(b.refunded_total),
      explain: 'Sua parte em vendas reembolsadas ou contestadas.',
    },
    {
      label: 'Já sacado',
      amount: brl(b.withdrawn),
      explain: 'Saques de coprodução pendentes, aprovados ou pagos.',
    },
  ]
  return (
    <Section id="t-coprodutor" title="Ganhos como coprodutor">
      <Figures rows={rows} />
      <WithdrawForm url="/api/coproducers/withdraw" id="valor-coprodutor" pixKey={props.pixKey} />
    </Section>
  )
}
