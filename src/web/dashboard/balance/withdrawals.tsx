// The user's withdrawals (every role), newest first, with status in words and the admin's note.
import type { VNode } from 'preact'
import type { listWithdrawals } from '../../../modules/payouts/withdrawals.ts'
import { brl, type Data, ListOr, when } from '../ui.tsx'

const STATUS: Record<string, string> = {
  pending: 'pendente',
  approved: 'aprovado',
  paid: 'pago',
  rejected: 'recusado',
}
const NEXT: Record<string, string> = {
  pending: 'Aguardando a aprovação da equipe da Vitrine.',
  approved: 'Aprovado: a transferência Pix sai em seguida.',
}
const ROLE: Record<string, string> = {
  creator: 'saldo da loja',
  affiliate: 'comissões de afiliado',
  coproducer: 'ganhos de coprodução',
}

type Withdrawal = Data<typeof listWithdrawals>['data'][number]

function nextStep(w: Withdrawal): string | null {
  if (w.transfer_in_progress) return 'Transferência Pix em andamento no banco.'
  if (w.status === 'paid') return `Pago em ${when(w.paid_at, true)}.`
  if (w.status === 'rejected') return 'O valor voltou para o saldo.'
  return NEXT[w.status] ?? null
}

export function Withdrawals(props: { page: Data<typeof listWithdrawals> }): VNode {
  const items = props.page.data.map(
    (w): VNode => (
      <li key={w.id}>
        <p>
          <strong>{brl(w.amount)}</strong>
          {` · ${STATUS[w.status]} · `}
          <span class="muted">{`${when(w.created_at, true)} · ${ROLE[w.role]} · Pix ${w.pix_key}`}</span>
        </p>
        <p class="muted">{nextStep(w)}</p>
        {w.admin_note ? <p>{`Observação da equipe: ${w.admin_note}`}</p> : null}
      </li>
    ),
  )
  return (
    <>
      <ListOr
        items={items}
        empty="Nenhum saque ainda. Quando houver saldo disponível e a chave Pix estiver verificada, peça um saque acima."
      />
      {props.page.has_more ? <p class="muted">Mostrando os 50 saques mais recentes.</p> : null}
    </>
  )
}
