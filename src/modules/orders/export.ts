// GET /api/v1/orders/export.csv: the filtered orders as a spreadsheet a Brazilian opens in
// Excel with a double click. Excel in pt-BR reads `;` as the column separator (the comma is the
// decimal mark) and needs the UTF-8 byte-order mark to show accents; amounts are written
// "1234,56" and dates in São Paulo time, "25/11/2026 14:03". Cells a spreadsheet would run as a
// formula (starting with = + - @, tab or CR) get a leading apostrophe (CSV injection).
import type { Executor } from '../../kit/db.ts'
import { formatDecimal } from '../../kit/money.ts'
import { type OrderFilters, ordersRepo } from './repo.ts'
import { capitalizedWords, ORDER_STATUS_PT, PAYMENT_METHOD_PT } from './words.ts'

const BATCH = 1000
const BOM = '\uFEFF'

const STATUS_PT = capitalizedWords(ORDER_STATUS_PT)
const METHOD_PT = capitalizedWords(PAYMENT_METHOD_PT)

export const CSV_COLUMNS = [
  'Pedido',
  'Criado em',
  'Status',
  'Produto',
  'Comprador',
  'E-mail',
  'Telefone',
  'Forma de pagamento',
  'Parcelas',
  'Valor (R$)',
  'Juros (R$)',
  'Cupom',
  'Comissão de afiliado (R$)',
  'Pago em',
  'Reembolsado em',
] as const

const dateTime = (at: Date | string | null) =>
  at
    ? new Date(at)
        .toLocaleString('pt-BR', {
          timeZone: 'America/Sao_Paulo',
          dateStyle: 'short',
          timeStyle: 'short',
        })
        .replace(',', '')
    : ''
const reais = (cents: number | null) =>
  cents === null ? '' : formatDecimal(cents).replace('.', ',')

/** One cell: quoted when it holds the separator, a quote or a line break; never a formula. */
export function csvCell(value: string | number): string {
  let text = String(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

const line = (cells: (string | number)[]) => `${cells.map(csvCell).join(';')}\r\n`

/** The CSV, header first, in chunks of up to 1,000 orders (newest first). */
export async function* ordersCsv(
  db: Executor,
  accountId: string,
  filters: OrderFilters,
  productName: (productId: string) => Promise<string>,
): AsyncGenerator<string> {
  yield BOM + line([...CSV_COLUMNS])
  let after: { created_at: Date; id: string } | undefined
  for (;;) {
    const rows = await ordersRepo.batch(db, accountId, filters, after, BATCH)
    let chunk = ''
    for (const o of rows)
      chunk += line([
        o.id,
        dateTime(o.created_at),
        STATUS_PT[o.status] ?? o.status,
        await productName(o.product_id),
        o.buyer_name,
        o.buyer_email,
        o.buyer_phone,
        METHOD_PT[o.payment_method] ?? o.payment_method,
        o.installments,
        reais(o.amount_cents),
        reais(o.interest_cents),
        o.coupon_code ?? '',
        reais(o.affiliate_commission_cents),
        dateTime(o.paid_at),
        dateTime(o.refunded_at),
      ])
    if (chunk) yield chunk
    const last = rows.at(-1)
    if (!last || rows.length < BATCH) return
    after = { created_at: new Date(last.created_at), id: last.id }
  }
}
