// GET /api/v1/orders/export.csv: the filtered orders as a CSV Excel in Brazil opens as is
// (UTF-8 BOM, `;`, decimal comma), formulas neutralized, only the caller's account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupCreator } from '../../setup/actors.ts'
import { paidSale } from '../../setup/ledger.ts'
import { checkout, createProduct } from '../../setup/purchase.ts'
import { engine, startTestService, type TestService } from '../../setup/service.ts'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(() => svc?.stop())

async function csv(key: string, query = '') {
  const res = await fetch(`${svc.url}/api/v1/orders/export.csv${query}`, {
    headers: { authorization: `Bearer ${key}` },
  })
  const bytes = new Uint8Array(await res.arrayBuffer())
  return { res, bytes, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes) }
}

describe(`orders CSV export (${engine})`, () => {
  it('streams the filtered orders with a BOM, `;` and pt-BR amounts and dates', async () => {
    const creator = await signupCreator(svc.api)
    const other = await signupCreator(svc.api)
    const key = await creator.key(['write:products', 'read:orders'])
    const product = await createProduct(svc.api, key, {
      name: 'Curso; "Cerâmica"',
      plans: [{ name: 'Único', price: 1234.5 }],
    })
    const { orderId } = await paidSale(svc, creator, {
      productId: product.id,
      key,
      body: { name: '=HYPERLINK("http://x")' },
    })
    const pending = await checkout(svc.api, product.id, { email: 'pendente@example.com' })
    await paidSale(svc, other)

    const all = await csv(key)
    expect(all.res.status).toBe(200)
    expect(all.res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(all.res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="pedidos-\d{4}-\d{2}-\d{2}\.csv"$/,
    )
    expect([...all.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const lines = all.text.slice(1).split('\r\n')
    expect(lines.at(-1)).toBe('')
    expect(lines[0]).toBe(
      'Pedido;Criado em;Status;Produto;Comprador;E-mail;Telefone;Forma de pagamento;Parcelas;Valor (R$);Juros (R$);Cupom;Comissão de afiliado (R$);Pago em;Reembolsado em',
    )
    expect(lines).toHaveLength(4) // header, two orders of this account, the final newline
    const paid = lines.find((l) => l.startsWith(orderId))!
    const cells = paid.split(';')
    expect(paid).toContain(';Pago;"Curso; ""Cerâmica""";')
    expect(paid).toContain(`;"'=HYPERLINK(""http://x"")";`)
    expect(paid).toContain(';Pix;1;1234,50;0,00;;;')
    expect(cells[1]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/)
    expect(lines[1]!.startsWith(pending.body.order_id)).toBe(true) // newest first
    expect(lines[1]).toContain(';Aguardando pagamento;')

    const onlyPaid = await csv(key, '?status=paid&payment_method=pix')
    expect(onlyPaid.text.slice(1).trim().split('\r\n')).toHaveLength(2)
    const byMail = await csv(key, '?buyer_email=PENDENTE@example.com')
    expect(byMail.text).toContain('pendente@example.com')
    expect(byMail.text).not.toContain(orderId)
    const card = await csv(key, '?payment_method=card')
    expect(card.text.slice(1).trim().split('\r\n')).toHaveLength(1)
  })

  it('pages through more orders than one batch, and refuses a bad filter or scope', async () => {
    const creator = await signupCreator(svc.api)
    const key = await creator.key(['write:products', 'read:orders'])
    const product = await createProduct(svc.api, key)
    // Rows written straight to the table: 2,500 checkouts over HTTP would take minutes.
    const order = await checkout(svc.api, product.id)
    const row = await svc.deps.db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', order.body.order_id)
      .executeTakeFirstOrThrow()
    const base = new Date(row.created_at).getTime()
    const copies = Array.from({ length: 2500 }, (_, i) => ({
      ...row,
      id: `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`,
      created_at: new Date(base - (i % 7) * 1000),
      updated_at: new Date(base),
    }))
    for (let i = 0; i < copies.length; i += 500)
      await svc.deps.db
        .insertInto('orders')
        .values(copies.slice(i, i + 500))
        .execute()
    const all = await csv(key)
    const ids = all.text
      .slice(1)
      .trim()
      .split('\r\n')
      .slice(1)
      .map((l) => l.split(';')[0])
    expect(ids).toHaveLength(2501)
    expect(new Set(ids).size).toBe(2501)

    expect((await csv(key, '?payment_method=cheque')).res.status).toBe(400)
    const noScope = await creator.key(['read:products'])
    expect((await csv(noScope)).res.status).toBe(403)
  })
})
