// /dashboard/membros: the members with each access (revoke, after a confirmation) and the form
// that grants a product by hand (POST /api/v1/members/grant).
import type { VNode } from 'preact'
import { z } from 'zod'
import { listMembers } from '../../../modules/access/service.ts'
import { productNames } from '../../../modules/catalog/service.ts'
import type { RouteModule } from '../../../routes.ts'
import { dashboardPage } from '../page.tsx'
import { ActionButton, ApiForm, type Data, Field, ListOr, Section, when } from '../ui.tsx'

type Member = Data<typeof listMembers>['data'][number]

const PAGE_SIZE = 20
const Cursor = z.uuid().optional().catch(undefined)

function Access(props: { member: Member; productName: Map<string, string> }): VNode {
  const { member } = props
  const items = member.access.map((a) => {
    const product = props.productName.get(a.product_id) ?? 'produto removido'
    const origin = a.order_id ? (
      <a href={`/dashboard/pedidos/${a.order_id}`}>{`pedido de ${product}`}</a>
    ) : (
      'concedido à mão'
    )
    return (
      <li key={a.id}>
        <p>
          <strong>{product}</strong>
          {a.status === 'active'
            ? ` · ativo desde ${when(a.granted_at)}`
            : ` · revogado em ${when(a.revoked_at)}`}
        </p>
        <p class="muted">{origin}</p>
        {a.status === 'active' ? (
          <ActionButton
            url={`/api/v1/members/${member.id}/access/${a.id}/revoke`}
            confirm={`Revogar o acesso de ${member.email} a ${product}? A pessoa deixa de ver o conteúdo na hora.`}
            done="Acesso revogado."
            danger
          >
            {`Revogar acesso a ${product}`}
          </ActionButton>
        ) : null}
      </li>
    )
  })
  return <ListOr items={items} empty="Sem acessos." />
}

function GrantForm(props: { products: [string, string][] }): VNode {
  if (!props.products.length)
    return (
      <p class="muted">
        Crie um produto primeiro: <a href="/dashboard/produtos">Produtos</a>.
      </p>
    )
  return (
    <ApiForm url="/api/v1/members/grant" done="Acesso liberado. A pessoa recebe um e-mail.">
      <Field id="g-email" label="E-mail da pessoa" name="email" type="email" required />
      <Field id="g-nome" label="Nome (opcional)" name="name" maxLength={200} />
      <p>
        <label for="g-produto">Produto</label>
        <select id="g-produto" name="product_id" required>
          {props.products.map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
      </p>
      <button type="submit">Liberar acesso</button>
    </ApiForm>
  )
}

export const membersPage: RouteModule = (app, deps) =>
  dashboardPage(
    app,
    deps,
    { path: '/membros', section: '/membros' },
    async ({ accountId, query }) => {
      const startingAfter = Cursor.parse(query.starting_after || undefined)
      const [members, productName] = await Promise.all([
        listMembers(deps.db, accountId, {
          page: 1,
          limit: PAGE_SIZE,
          starting_after: startingAfter,
        }),
        productNames(deps.db, accountId),
      ])
      const items = members.data.map((m) => (
        <li key={m.id}>
          <p>
            <strong>{m.name || m.email}</strong>
          </p>
          <p class="muted">{`${m.email} · membro desde ${when(m.created_at)}`}</p>
          <Access member={m} productName={productName} />
        </li>
      ))
      const last = members.data.at(-1)
      return {
        title: 'Membros',
        body: (
          <>
            <Section id="t-liberar" title="Liberar acesso à mão">
              <p class="muted">Para presentes, parceiros ou suporte: sem pedido e sem cobrança.</p>
              <GrantForm products={[...productName]} />
            </Section>
            <Section id="t-membros" title="Quem tem acesso">
              <ListOr
                items={items}
                empty={
                  startingAfter
                    ? 'Não há membros mais antigos.'
                    : 'Nenhum membro ainda. Quem compra um produto aparece aqui; você também pode liberar um acesso à mão.'
                }
              />
              <nav class="pager" aria-label="Páginas de membros">
                {startingAfter ? <a href="/dashboard/membros">Mais recentes</a> : null}
                {members.has_more && last ? (
                  <a href={`/dashboard/membros?starting_after=${last.id}`}>Mais antigos</a>
                ) : null}
              </nav>
            </Section>
          </>
        ),
      }
    },
  )
