// /dashboard/produtos/novo and /dashboard/produtos/:id: create and edit a product through the
// API (POST, PATCH), its checkout link to copy, and archive / reactivate / delete. Billing is
// chosen on create only: the API's PATCH does not change it (plans and orders depend on it).
import type { VNode } from 'preact'
import { z } from 'zod'
import type { Deps } from '../../../deps.ts'
import { NotFound } from '../../../kit/errors.ts'
import { basisPointsToPercent } from '../../../kit/money.ts'
import type { ProductOut } from '../../../modules/catalog/schema.ts'
import { getProduct } from '../../../modules/catalog/service.ts'
import type { RouteModule } from '../../../routes.ts'
import { dashboardPage } from '../page.tsx'
import { ApiForm, CopyButton, Field, Section } from '../ui.tsx'
import { BILLING_LABEL, METHOD_LABEL, PRODUCT_STATUS, percentText } from './labels.ts'
import { PlanRows } from './plan-rows.tsx'

const METHODS = ['pix', 'card', 'boleto'] as const
/** What the API sets when the form leaves them out (SPEC §4 [decided]), for the new form. */
const DEFAULTS = {
  one_time: { methods: ['pix'], max: 1 },
  recurring: { methods: METHODS, max: 12 },
}

function PaymentFields(props: {
  billing: ProductOut['billing']
  product?: ProductOut
  interestPercent: number
}): VNode {
  const { billing, product } = props
  const methods: readonly string[] = product?.payment_methods ?? DEFAULTS[billing].methods
  const max = product?.max_installments ?? DEFAULTS[billing].max
  const interest = product?.installment_interest ?? 'seller'
  const recurring = billing === 'recurring'
  return (
    <>
      <fieldset data-methods>
        <legend>Formas de pagamento</legend>
        {METHODS.map((m) => (
          <label key={m} class="check">
            <input type="checkbox" name="payment_methods" value={m} checked={methods.includes(m)} />{' '}
            {METHOD_LABEL[m]}
          </label>
        ))}
      </fieldset>
      <p>
        <label for="parcelas">Parcelas no cartão (máximo)</label>
        <select id="parcelas" name="max_installments" data-type="number">
          {Array.from({ length: 12 }, (_, i) => i + 1).map((n) => (
            <option key={n} value={n} selected={n === max}>
              {n === 1 ? 'À vista (1x)' : `Até ${n}x`}
            </option>
          ))}
        </select>
      </p>
      <fieldset>
        <legend>Juros do parcelamento</legend>
        <label class="check">
          <input
            type="radio"
            name="installment_interest"
            value="seller"
            checked={interest === 'seller' || recurring}
          />{' '}
          Eu pago (o comprador parcela sem juros)
        </label>
        <label class="check">
          <input
            type="radio"
            name="installment_interest"
            value="buyer"
            checked={interest === 'buyer' && !recurring}
            disabled={recurring}
            data-one-time-only
          />{' '}
          {`O comprador paga (${percentText(props.interestPercent)} ao mês; só pagamento único)`}
        </label>
      </fieldset>
    </>
  )
}

function ProductForm(props: { product?: ProductOut; interestPercent: number }): VNode {
  const { product } = props
  const billing = product?.billing ?? 'one_time'
  const editing = Boolean(product)
  // On edit, an emptied optional field clears it (null); on create it is left out.
  const empty = editing ? ('null' as const) : undefined
  return (
    <ApiForm
      url={editing ? `/api/v1/products/${product!.id}` : '/api/v1/products'}
      method={editing ? 'PATCH' : 'POST'}
      then={editing ? 'refresh' : 'go'}
      go="/dashboard/produtos/{id}?criado=1"
      done="Alterações salvas."
      id="produto-form"
    >
      <p>
        <label for="nome">Nome do produto</label>
        <input
          id="nome"
          name="name"
          value={product?.name}
          maxLength={200}
          required
          data-slug-source
        />
      </p>
      {editing ? (
        <p class="muted">{`Endereço: ${product!.slug} · ${BILLING_LABEL[billing]} (não muda depois de criado)`}</p>
      ) : (
        <>
          <p>
            <label for="slug">Endereço do link (slug)</label>
            <input
              id="slug"
              name="slug"
              required
              maxLength={64}
              aria-describedby="slug-dica"
              data-slug-auto
            />
            <span id="slug-dica" class="muted">
              3 a 64 letras minúsculas, números ou hífen; vira o fim do link de checkout.
            </span>
          </p>
          <fieldset data-billing>
            <legend>Cobrança</legend>
            {(['one_time', 'recurring'] as const).map((b) => (
              <label key={b} class="check">
                <input type="radio" name="billing" value={b} checked={b === billing} />{' '}
                {BILLING_LABEL[b]}
              </label>
            ))}
            <span class="muted">Não pode ser mudada depois que o produto é criado.</span>
          </fieldset>
        </>
      )}
      <p>
        <label for="descricao">Descrição</label>
        <textarea id="descricao" name="description" rows={4} maxLength={10_000} data-empty={empty}>
          {product?.description ?? ''}
        </textarea>
      </p>
      <PlanRows plans={product?.plans ?? []} recurring={billing === 'recurring'} />
      <PaymentFields billing={billing} product={product} interestPercent={props.interestPercent} />
      <Field
        id="garantia"
        label="Garantia (dias)"
        name="guarantee_days"
        type="number"
        min={7}
        max={365}
        value={product?.guarantee_days ?? 7}
        hint="No mínimo 7 dias: o direito de arrependimento de compras pela internet (CDC, art. 49)."
      />
      <Field
        id="entrega"
        label="Link de entrega (o que o comprador acessa)"
        name="delivery_url"
        type="url"
        value={product?.delivery_url}
        empty={empty}
        placeholder="https://"
      />
      <Field
        id="imagem"
        label="Imagem do produto (link https)"
        name="image_url"
        type="url"
        value={product?.image_url}
        empty={empty}
        placeholder="https://"
        hint="Aparece no checkout. Use uma imagem larga (16:9), de até 2.000 caracteres no link."
      />
      <Field
        id="obrigado"
        label="Página de obrigado (depois do pagamento)"
        name="success_url"
        type="url"
        value={product?.success_url}
        empty={empty}
        placeholder="https://"
      />
      <button type="submit">{editing ? 'Salvar alterações' : 'Criar produto'}</button>
    </ApiForm>
  )
}

function CheckoutLink({ product, created }: { product: ProductOut; created: boolean }): VNode {
  if (product.status === 'archived')
    return (
      <Section id="t-link" title="Link de checkout">
        <p>Produto arquivado: o link não vende mais. Reative o produto para voltar a vender.</p>
      </Section>
    )
  return (
    <Section id="t-link" title="Link de checkout">
      {created ? <p>Produto criado. Copie o link e comece a vender.</p> : null}
      <p class="key">
        <a href={product.checkout_url}>{product.checkout_url}</a>
      </p>
      <CopyButton text={product.checkout_url} label="Copiar link de checkout" />
    </Section>
  )
}

/** Archive (reversible, keeps orders and members) and delete (the API archives when orders exist). */
function Lifecycle({ product }: { product: ProductOut }): VNode {
  const url = `/api/v1/products/${product.id}`
  const archived = product.status === 'archived'
  return (
    <Section id="t-situacao" title={`Situação: ${PRODUCT_STATUS[product.status]}`}>
      <ApiForm
        url={url}
        method="PATCH"
        confirm={
          archived
            ? `Reativar ${product.name}? O link de checkout volta a vender.`
            : `Arquivar ${product.name}? O link de checkout para de vender; pedidos, assinaturas e acessos continuam.`
        }
        done={archived ? 'Produto reativado.' : 'Produto arquivado.'}
        class="actions"
      >
        <input type="hidden" name="status" value={archived ? 'active' : 'archived'} />
        <button type="submit" class="sec">
          {archived ? 'Reativar produto' : 'Arquivar produto'}
        </button>
      </ApiForm>
      <ApiForm
        url={url}
        method="DELETE"
        confirm={`Excluir ${product.name}? Sem pedidos, ele é apagado de vez; com pedidos, é arquivado.`}
        then="go"
        go="/dashboard/produtos"
        class="actions"
      >
        <button type="submit" class="danger">
          Excluir produto
        </button>
      </ApiForm>
    </Section>
  )
}

const interestOf = (deps: Deps) => basisPointsToPercent(deps.config.cardInstallmentInterestBps)

export const productNewPage: RouteModule = (app, deps) =>
  dashboardPage(app, deps, { path: '/produtos/novo', section: '/produtos' }, async () => ({
    title: 'Novo produto',
    body: (
      <Section id="t-novo" title="Dados do produto">
        <ProductForm interestPercent={interestOf(deps)} />
      </Section>
    ),
  }))

const Id = z.uuid()

export const productEditPage: RouteModule = (app, deps) =>
  dashboardPage(app, deps, { path: '/produtos/:id', section: '/produtos' }, async (ctx) => {
    const id = Id.safeParse(ctx.params.id)
    const product = id.success
      ? await getProduct(deps.db, deps, ctx.accountId, id.data).catch((error: unknown) => {
          if (error instanceof NotFound) return undefined
          throw error
        })
      : undefined
    if (!product)
      return {
        status: 404,
        title: 'Produto não encontrado',
        body: (
          <div class="card">
            <p>
              Este produto não existe nesta conta.{' '}
              <a href="/dashboard/produtos">Ver seus produtos</a>
            </p>
          </div>
        ),
      }
    return {
      title: product.name,
      body: (
        <>
          <CheckoutLink product={product} created={ctx.query.criado === '1'} />
          <Section id="t-dados" title="Dados do produto">
            <ProductForm product={product} interestPercent={interestOf(deps)} />
          </Section>
          <Lifecycle product={product} />
        </>
      ),
    }
  })
