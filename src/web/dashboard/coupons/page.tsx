// /dashboard/cupons: a product's coupons (code, discount, validity, uses) and the form that
// creates one through POST /api/v1/products/{id}/coupons. The API has no way to change or
// remove a coupon yet; an expiry date or a use limit is how a coupon ends.
import type { VNode } from 'preact'
import { listCoupons } from '../../../modules/catalog/coupons.ts'
import type { RouteModule } from '../../../routes.ts'
import { dashboardPage } from '../page.tsx'
import { percentText } from '../products/labels.ts'
import { NoProductYet, ProductPicker, pickProduct } from '../products/picker.tsx'
import { ApiForm, brl, CopyButton, type Data, Field, ListOr, Section, when } from '../ui.tsx'

type Coupon = Data<typeof listCoupons>[number]

function couponState(coupon: Coupon, now: Date): string {
  if (coupon.expires_at && new Date(coupon.expires_at) <= now) return 'expirado'
  if (coupon.max_redemptions !== null && coupon.redemptions >= coupon.max_redemptions)
    return 'esgotado'
  return 'ativo'
}

function CouponItem(props: { coupon: Coupon; now: Date; checkoutUrl: string }): VNode {
  const { coupon, now } = props
  const state = couponState(coupon, now)
  const link = `${props.checkoutUrl}?coupon=${encodeURIComponent(coupon.code)}`
  const off =
    coupon.percent_off !== null ? percentText(coupon.percent_off) : brl(coupon.amount_off ?? 0)
  const uses =
    coupon.max_redemptions === null
      ? `${coupon.redemptions} uso(s), sem limite`
      : `${coupon.redemptions} de ${coupon.max_redemptions} uso(s)`
  return (
    <li>
      <p class="row">
        <strong>
          <code>{coupon.code}</code>
          {` · ${off} de desconto`}
        </strong>
        <span class="badge">{state}</span>
      </p>
      <p class="muted">
        {`${uses} · ${coupon.expires_at ? `válido até ${when(coupon.expires_at, true)}` : 'sem validade'}`}
      </p>
      {state === 'ativo' ? (
        <CopyButton text={link} label={`Copiar link com o cupom ${coupon.code}`} />
      ) : null}
    </li>
  )
}

function NewCoupon({ productId }: { productId: string }): VNode {
  return (
    <ApiForm url={`/api/v1/products/${productId}/coupons`} done="Cupom criado." id="cupom-form">
      <Field
        id="cupom-codigo"
        label="Código do cupom"
        name="code"
        maxLength={40}
        required
        hint="2 a 40 letras, números, _ ou -; o comprador digita sem diferença de maiúsculas."
      />
      <fieldset>
        <legend>Desconto (preencha um dos dois)</legend>
        <Field
          id="cupom-percentual"
          label="Desconto em %"
          name="percent_off"
          inputMode="decimal"
          dataType="number"
          placeholder="Ex.: 10"
        />
        <Field
          id="cupom-valor"
          label="Desconto em R$"
          name="amount_off"
          inputMode="decimal"
          dataType="number"
          placeholder="Ex.: 20,00"
        />
      </fieldset>
      <fieldset>
        <legend>Validade</legend>
        <p>
          <label for="cupom-validade">Válido até (opcional)</label>
          <input id="cupom-validade" type="date" data-expiry-for="cupom-expira" />
          <input id="cupom-expira" type="hidden" name="expires_at" />
        </p>
      </fieldset>
      <Field
        id="cupom-limite"
        label="Limite de usos (opcional)"
        name="max_redemptions"
        type="number"
        min={1}
        hint="Em branco: sem limite."
      />
      <button type="submit">Criar cupom</button>
    </ApiForm>
  )
}

export const couponsPage: RouteModule = (app, deps) =>
  dashboardPage(app, deps, { path: '/cupons', section: '/cupons' }, async (ctx) => {
    const { products, chosen } = await pickProduct(deps, ctx)
    if (!chosen) return { title: 'Cupons', body: <NoProductYet what="Cupons" /> }
    const coupons = await listCoupons(deps.db, ctx.accountId, chosen.id)
    const now = deps.clock.now()
    return {
      title: 'Cupons',
      body: (
        <>
          <ProductPicker
            products={products}
            chosen={chosen}
            action="/dashboard/cupons"
            show="Ver cupons"
          />
          <Section id="t-cupons" title={`Cupons de ${chosen.name}`}>
            <ListOr
              items={coupons.map((c) => (
                <CouponItem key={c.id} coupon={c} now={now} checkoutUrl={chosen.checkout_url} />
              ))}
              empty="Nenhum cupom ainda. Crie um abaixo e divulgue o código ou o link com ?coupon=CÓDIGO."
            />
          </Section>
          <Section id="t-novo-cupom" title="Novo cupom">
            <NewCoupon productId={chosen.id} />
          </Section>
        </>
      ),
    }
  })
