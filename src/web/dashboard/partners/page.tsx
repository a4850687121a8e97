// /dashboard/parceiros: a product's affiliates (invite with a commission, their code and link,
// change the commission) and co-producers (invite with a split; the splits add up to at most
// 100 %). Every write is the API's (enrolAffiliate, updateAffiliate, enrolCoproducer).
import type { VNode } from 'preact'
import { basisPointsToPercent, percentToBasisPoints } from '../../../kit/money.ts'
import type { AffiliateOut } from '../../../modules/affiliates/schema.ts'
import { listAffiliates } from '../../../modules/affiliates/service.ts'
import type { ProductOut } from '../../../modules/catalog/schema.ts'
import type { CoproducerOut } from '../../../modules/coproducers/schema.ts'
import { listCoproducers } from '../../../modules/coproducers/service.ts'
import type { RouteModule } from '../../../routes.ts'
import { dashboardPage } from '../page.tsx'
import { percentText } from '../products/labels.ts'
import { NoProductYet, ProductPicker, pickProduct } from '../products/picker.tsx'
import { ApiForm, CopyButton, Field, ListOr, Section } from '../ui.tsx'

const PAGE = { page: 1, limit: 100 }

function AffiliateItem(props: { affiliate: AffiliateOut; product: ProductOut }): VNode {
  const { affiliate: a, product } = props
  const who = a.name || a.email
  return (
    <li>
      <p>
        <strong>{who}</strong>
        {` · ${a.email} · código `}
        <code>{a.code}</code>
        {` · ${percentText(a.commission_percent)} de comissão`}
      </p>
      <p class="key">
        <a href={a.referral_url}>{a.referral_url}</a>
      </p>
      <p>
        <CopyButton text={a.referral_url} label={`Copiar link de ${who}`} />
      </p>
      <ApiForm
        url={`/api/v1/products/${product.id}/affiliates/${a.id}`}
        method="PATCH"
        done="Comissão alterada. Vale para os próximos pedidos."
        class="actions"
      >
        <span>
          <label for={`comissao-${a.id}`}>{`Nova comissão de ${who} (%)`}</label>
          <input
            id={`comissao-${a.id}`}
            name="commission_percent"
            inputMode="decimal"
            data-type="number"
            value={String(a.commission_percent).replace('.', ',')}
            required
          />
        </span>
        <button type="submit" class="sec">
          Alterar comissão
        </button>
      </ApiForm>
    </li>
  )
}

function Affiliates(props: { product: ProductOut; affiliates: AffiliateOut[] }): VNode {
  const { product } = props
  return (
    <>
      <Section id="t-afiliados" title="Afiliados">
        <p class="muted">
          Cada afiliado divulga o próprio link e recebe a comissão das vendas que trouxer. Mudar a
          comissão vale só para pedidos novos.
        </p>
        <ListOr
          items={props.affiliates.map((a) => (
            <AffiliateItem key={a.id} affiliate={a} product={product} />
          ))}
          empty="Nenhum afiliado ainda. Convide alguém pelo e-mail abaixo."
        />
      </Section>
      <Section id="t-novo-afiliado" title="Convidar afiliado">
        <ApiForm
          url={`/api/v1/products/${product.id}/affiliates`}
          done="Afiliado convidado. Enviamos um e-mail com o acesso."
          id="afiliado-form"
        >
          <Field
            id="afiliado-email"
            label="E-mail do afiliado"
            name="email"
            type="email"
            required
          />
          <Field
            id="afiliado-comissao"
            label="Comissão do afiliado (%)"
            name="commission_percent"
            inputMode="decimal"
            dataType="number"
            required
            placeholder="Ex.: 30"
          />
          <button type="submit">Convidar afiliado</button>
        </ApiForm>
      </Section>
    </>
  )
}

function Coproducers(props: { product: ProductOut; coproducers: CoproducerOut[] }): VNode {
  const totalBps = props.coproducers.reduce(
    (sum, c) => sum + percentToBasisPoints(c.split_percent),
    0,
  )
  const total = basisPointsToPercent(totalBps)
  const left = basisPointsToPercent(10_000 - totalBps)
  return (
    <>
      <Section id="t-coprodutores" title="Coprodutores">
        <p class="muted">
          Cada coprodutor recebe a parte combinada de cada venda, depois da comissão do afiliado. A
          soma das partes não pode passar de 100%.
        </p>
        <ListOr
          items={props.coproducers.map((c) => (
            <li key={c.id}>
              <p>
                <strong>{c.name || c.email}</strong>
                {` · ${c.email} · ${percentText(c.split_percent)} de cada venda`}
              </p>
            </li>
          ))}
          empty="Nenhum coprodutor ainda."
        />
        <p>{`Soma das partes: ${percentText(total)} de 100% · ainda disponível: ${percentText(left)}`}</p>
      </Section>
      <Section id="t-novo-coprodutor" title="Convidar coprodutor">
        <ApiForm
          url={`/api/v1/products/${props.product.id}/coproducers`}
          done="Coprodutor convidado. Enviamos um e-mail com o acesso."
          id="coprodutor-form"
        >
          <Field
            id="coprodutor-email"
            label="E-mail do coprodutor"
            name="email"
            type="email"
            required
          />
          <Field
            id="coprodutor-parte"
            label="Parte do coprodutor (%)"
            name="split_percent"
            inputMode="decimal"
            dataType="number"
            required
            hint={`Até ${percentText(left)} (o que falta para 100%).`}
          />
          <button type="submit">Convidar coprodutor</button>
        </ApiForm>
      </Section>
    </>
  )
}

export const partnersPage: RouteModule = (app, deps) =>
  dashboardPage(app, deps, { path: '/parceiros', section: '/parceiros' }, async (ctx) => {
    const title = 'Afiliados e coprodutores'
    const { products, chosen } = await pickProduct(deps, ctx)
    if (!chosen) return { title, body: <NoProductYet what="Afiliados e coprodutores" /> }
    const [affiliates, coproducers] = await Promise.all([
      listAffiliates(deps.db, deps, ctx.accountId, chosen.id, PAGE),
      listCoproducers(deps.db, deps, ctx.accountId, chosen.id, PAGE),
    ])
    return {
      title,
      body: (
        <>
          <ProductPicker
            products={products}
            chosen={chosen}
            action="/dashboard/parceiros"
            show="Ver parceiros"
          />
          <Affiliates product={chosen} affiliates={affiliates.data} />
          <Coproducers product={chosen} coproducers={coproducers.data} />
        </>
      ),
    }
  })
