// The catalog forms' islands (products, coupons): plan rows added and removed, the slug
// suggested from the name, the billing choice showing what it allows, a coupon's expiry date
// turned into the instant the API takes. Everything listens on the document, so it keeps
// working after forms.ts swaps the page's content in place.

/** "Curso de Cerâmica!" → "curso-de-ceramica" (the API's [a-z0-9-]{3,64}). */
export function slugify(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '')
}

/** The API takes at most 20 plans per product. */
const MAX_PLANS = 20

/** Names (plans.N.*), ids, labels and "Remover plano N" follow each row's position. */
function renumber(plans: Element): void {
  const rows = Array.from(plans.querySelectorAll<HTMLElement>('[data-plan-row]'))
  const add = plans.querySelector<HTMLButtonElement>('[data-add-plan]')
  if (add) add.disabled = rows.length >= MAX_PLANS
  rows.forEach((row, i) => {
    for (const field of Array.from(row.querySelectorAll<HTMLInputElement>('[name^="plans."]')))
      field.name = field.name.replace(/^plans\.\d+\./, `plans.${i}.`)
    for (const el of Array.from(row.querySelectorAll<HTMLElement>('[id^="plano-"]')))
      el.id = el.id.replace(/^plano-\d+-/, `plano-${i}-`)
    for (const label of Array.from(row.querySelectorAll<HTMLLabelElement>('label[for^="plano-"]')))
      label.htmlFor = label.htmlFor.replace(/^plano-\d+-/, `plano-${i}-`)
    for (const el of Array.from(row.querySelectorAll<HTMLElement>('[data-label]')))
      el.textContent = (el.dataset.label ?? '').replace('{n}', String(i + 1))
    const remove = row.querySelector<HTMLButtonElement>('[data-remove-plan]')
    if (remove) remove.disabled = rows.length === 1
  })
}

function addPlan(plans: Element): void {
  const rows = plans.querySelectorAll('[data-plan-row]')
  const last = rows[rows.length - 1]
  if (!last || rows.length >= MAX_PLANS) return
  const row = last.cloneNode(true) as HTMLElement
  // A new plan: no id (the API adds it), empty name and price, monthly every 1.
  row.querySelector('input[type=hidden][name$=".id"]')?.remove()
  for (const field of Array.from(row.querySelectorAll<HTMLInputElement>('input')))
    field.value = field.type === 'number' ? '1' : ''
  const select = row.querySelector('select')
  if (select) select.value = 'month'
  last.after(row)
  renumber(plans)
  row.querySelector<HTMLInputElement>('input[name$=".name"]')?.focus()
}

/** Shows the fields a billing allows and sets the API's defaults for it (SPEC §4). */
function chooseBilling(form: HTMLFormElement, billing: string): void {
  const recurring = billing === 'recurring'
  for (const box of Array.from(form.querySelectorAll<HTMLElement>('[data-recurring]'))) {
    box.hidden = !recurring
    for (const field of Array.from(box.querySelectorAll<HTMLInputElement>('input, select')))
      field.disabled = !recurring
  }
  const buyer = form.querySelector<HTMLInputElement>('[data-one-time-only]')
  if (buyer) {
    buyer.disabled = recurring
    if (recurring && buyer.checked) {
      const seller = form.querySelector<HTMLInputElement>('input[name=installment_interest]')
      if (seller) seller.checked = true
    }
  }
  for (const box of Array.from(
    form.querySelectorAll<HTMLInputElement>('[data-methods] input[type=checkbox]'),
  ))
    box.checked = recurring || box.value === 'pix'
  const max = form.querySelector<HTMLSelectElement>('select[name=max_installments]')
  if (max) max.value = recurring ? '12' : '1'
}

/** A coupon valid "until" a day: until the end of that day in São Paulo (UTC−3, no DST). */
function copyExpiry(field: HTMLInputElement): void {
  const hidden = field.dataset.expiryFor ? document.getElementById(field.dataset.expiryFor) : null
  if (!(hidden instanceof HTMLInputElement)) return
  const date = field.value
  hidden.value = /^\d{4}-\d{2}-\d{2}$/.test(date) ? `${date}T23:59:59-03:00` : ''
}

export function wireCatalogForms(): void {
  document.addEventListener('click', (event) => {
    const target = event.target as Element
    const add = target.closest('[data-add-plan]')
    const plans = target.closest('[data-plans]')
    if (add && plans) addPlan(plans)
    const remove = target.closest('[data-remove-plan]')
    if (remove && plans && plans.querySelectorAll('[data-plan-row]').length > 1) {
      remove.closest('[data-plan-row]')?.remove()
      renumber(plans)
    }
  })
  document.addEventListener('input', (event) => {
    const field = event.target as HTMLInputElement
    copyExpiry(field)
    const form = field.form
    if (!form) return
    if (field.matches('[data-slug-auto]')) field.dataset.slugAuto = 'off'
    const slug = form.querySelector<HTMLInputElement>('[data-slug-auto]')
    if (field.matches('[data-slug-source]') && slug && slug.dataset.slugAuto !== 'off')
      slug.value = slugify(field.value)
  })
  document.addEventListener('change', (event) => {
    const field = event.target as HTMLInputElement
    if (field.form && field.name === 'billing' && field.type === 'radio' && field.checked)
      chooseBilling(field.form, field.value)
    copyExpiry(field)
  })
}
