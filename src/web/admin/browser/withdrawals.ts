// The withdrawal history: filled from GET /api/admin/withdrawal-history (filter by status, "more"
// pages), each open one with its holder's available balance and its next step. Every action
// asks for confirmation (amount, holder, PIX key), then says what happened in #mensagem and
// draws the list again from the API, so the page holds no rule of its own.
import type { AdminConfig } from '../config.ts'
import { api, errorText } from './api.ts'
import { confirmAction } from './confirm.ts'
import { brl, dateTime, h, showRowError } from './dom.ts'

interface Withdrawal {
  id: string
  role: 'creator' | 'coproducer' | 'affiliate'
  amount: number
  status: 'pending' | 'approved' | 'paid' | 'rejected'
  admin_note: string | null
  pix_key: string
  pix_key_full: string
  pix_key_type: string
  created_at: string
  transfer_in_progress: boolean
  end_to_end_id: string | null
  holder_name: string
  holder_email: string
  holder_available: number | null
}
interface Page {
  data: Withdrawal[]
  page: number
  has_more: boolean
}

const ROLE = { creator: 'produtor', coproducer: 'coprodutor', affiliate: 'afiliado' }
const STATUS = { pending: 'pendente', approved: 'aprovado', paid: 'pago', rejected: 'recusado' }
const EMPTY: Record<string, string> = {
  open: 'Nenhum saque pendente ou aprovado.',
  '': 'Nenhum saque ainda.',
}

export function wireWithdrawals(cfg: AdminConfig, say: (message: string) => void) {
  const list = document.getElementById('saques') as HTMLUListElement
  const filter = document.getElementById('filtro-saques') as HTMLSelectElement
  const state = document.getElementById('saques-situacao') as HTMLElement
  const more = document.getElementById('saques-mais') as HTMLButtonElement
  let page = 1

  async function load(next = false) {
    page = next ? page + 1 : 1
    const status = filter.value
    const query = `page=${page}&limit=20${status ? `&status=${status}` : ''}`
    state.textContent = 'Carregando…'
    const answer = await api<Page>('GET', `/api/admin/withdrawal-history?${query}`)
    if (!answer.ok) {
      state.textContent = errorText(answer)
      return
    }
    const rows = answer.body.data.map(row)
    if (next) list.append(...rows)
    else list.replaceChildren(...rows)
    state.textContent = list.childElementCount
      ? ''
      : (EMPTY[status] ?? `Nenhum saque ${STATUS[status as Withdrawal['status']]}.`)
    more.hidden = !answer.body.has_more
  }

  // The key as the admin needs it: in full to pay by hand, masked when the provider pays.
  const keyOf = (w: Withdrawal) => (cfg.automatic ? w.pix_key : w.pix_key_full)
  const facts = (w: Withdrawal): [string, string][] => [
    ['Valor', brl(w.amount)],
    ['Para', `${w.holder_name} (${w.holder_email}, ${ROLE[w.role]})`],
    ['Chave Pix', `${w.pix_key_type}: ${keyOf(w)}`],
  ]

  function row(w: Withdrawal): HTMLLIElement {
    const error = h('p', { class: 'erro', role: 'alert', hidden: true })
    const open = w.status === 'pending' || w.status === 'approved'
    const status = w.transfer_in_progress ? 'transferência Pix em andamento' : STATUS[w.status]
    const balance =
      w.holder_available === null
        ? null
        : h(
            'p',
            { class: w.holder_available < 0 ? 'saldo negativo' : 'saldo' },
            `Saldo disponível de ${w.holder_name}: ${brl(w.holder_available)}`,
          )
    const item = h(
      'li',
      { 'data-id': w.id },
      h(
        'p',
        {},
        `${w.holder_name} `,
        h('span', { class: 'muted' }, `${w.holder_email} · ${ROLE[w.role]}`),
      ),
      h(
        'p',
        {},
        h('strong', {}, brl(w.amount)),
        ` · ${status} · `,
        h('span', { class: 'muted' }, `pedido em ${dateTime(w.created_at)}`),
      ),
      h('p', { class: 'muted' }, `Pix ${w.pix_key_type}: `, h('span', { class: 'key' }, keyOf(w))),
      balance,
      w.admin_note ? h('p', { class: 'muted' }, `Motivo: ${w.admin_note}`) : null,
      w.end_to_end_id ? h('p', { class: 'muted' }, `End-to-end: ${w.end_to_end_id}`) : null,
      open ? actions(w, error) : null,
      error,
    )
    return item
  }

  function actions(w: Withdrawal, error: HTMLElement) {
    const box = h('div', { class: 'actions' })
    const run = async (
      button: HTMLButtonElement,
      title: string,
      url: string,
      body: unknown,
      done: (after: Withdrawal) => string,
    ) => {
      showRowError(error, '')
      if (!(await confirmAction(title, facts(w)))) return
      button.disabled = true
      const answer = await api<{ data: Withdrawal }>('POST', url, body)
      button.disabled = false
      if (!answer.ok) return showRowError(error, errorText(answer))
      say(done(answer.body.data))
      await load()
    }
    const base = `/api/admin/withdrawals/${w.id}`
    const who = `${brl(w.amount)} de ${w.holder_name}`
    if (w.status === 'pending') {
      const approve = h('button', { type: 'button' }, 'Aprovar')
      approve.addEventListener('click', () =>
        run(
          approve,
          'Aprovar saque?',
          `${base}/approve`,
          undefined,
          () => `Saque de ${who} aprovado.`,
        ),
      )
      box.append(approve)
    } else {
      const payDone = (after: Withdrawal) =>
        after.status === 'paid'
          ? `Saque de ${who} pago.`
          : after.status === 'rejected'
            ? `A transferência do saque de ${who} foi recusada pelo banco: ${after.admin_note ?? ''}`
            : `Transferência Pix do saque de ${who} em andamento.`
      if (cfg.automatic) {
        const pay = h(
          'button',
          { type: 'button' },
          w.transfer_in_progress ? 'Consultar transferência' : 'Pagar via Pix',
        )
        pay.addEventListener('click', () =>
          run(pay, 'Pagar saque via Pix?', `${base}/pay`, undefined, payDone),
        )
        box.append(pay)
      } else {
        const id = `e2e-${w.id}`
        const e2e = h('input', { id, name: 'end_to_end_id', maxlength: '32', autocomplete: 'off' })
        const pay = h('button', { type: 'button' }, 'Marcar como pago')
        pay.addEventListener('click', () => {
          if (!e2e.value.trim()) {
            showRowError(error, 'Informe o end-to-end id do Pix enviado.')
            return e2e.focus()
          }
          run(
            pay,
            'Marcar saque como pago?',
            `${base}/pay`,
            { end_to_end_id: e2e.value.trim() },
            payDone,
          )
        })
        box.append(h('span', {}, h('label', { for: id }, 'End-to-end id do Pix enviado'), e2e), pay)
      }
    }
    if (!w.transfer_in_progress) {
      const id = `nota-${w.id}`
      const note = h('input', { id, name: 'admin_note', maxlength: '500' })
      const reject = h('button', { type: 'button', class: 'sec' }, 'Recusar')
      reject.addEventListener('click', () => {
        if (!note.value.trim()) {
          showRowError(error, 'Escreva o motivo antes de recusar.')
          return note.focus()
        }
        run(
          reject,
          'Recusar saque?',
          `${base}/reject`,
          { admin_note: note.value.trim() },
          () => `Saque de ${who} recusado; o valor voltou ao saldo.`,
        )
      })
      box.append(h('span', {}, h('label', { for: id }, 'Motivo da recusa'), note), reject)
    }
    return box
  }

  filter.addEventListener('change', () => load())
  more.addEventListener('click', () => load(true))
  return load
}
