// The coupon field: "Aplicar" (or Enter) asks the page's server for the plans' prices with the
// code (GET <couponUrl>?code=), then the page shows them; the line beside the field says
// "Cupom X aplicado" or "Cupom inválido". An emptied field removes the coupon.
import type { CheckoutConfig, CouponQuote } from '../config.ts'

export function wireCoupon(cfg: CheckoutConfig, onApplied: (coupon: string | null) => void) {
  const input = document.getElementById('cupom') as HTMLInputElement | null
  const button = document.getElementById('cupom-aplicar') as HTMLButtonElement | null
  const line = document.getElementById('cupom-situacao')
  if (!input || !button || !line) return

  async function apply() {
    const code = input!.value.trim()
    button!.disabled = true
    try {
      const res = await fetch(`${cfg.couponUrl}?code=${encodeURIComponent(code)}`)
      if (!res.ok) throw new Error()
      const quote = (await res.json()) as CouponQuote
      cfg.plans = quote.plans
      cfg.coupon = quote.coupon
      line!.textContent = quote.message || (code ? '' : 'Cupom removido')
      line!.className = code && !quote.coupon ? 'erro-campo' : 'muted'
      input!.setAttribute('aria-invalid', code && !quote.coupon ? 'true' : 'false')
      onApplied(quote.coupon)
    } catch {
      line!.className = 'erro-campo'
      line!.textContent = 'Não foi possível conferir o cupom. Tente de novo.'
    } finally {
      button!.disabled = false
    }
  }

  button.addEventListener('click', apply)
  // Enter in the field applies the coupon instead of submitting the purchase.
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return
    event.preventDefault()
    apply()
  })
}
