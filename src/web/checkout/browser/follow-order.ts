// The hosted checkout follows an order until it is paid (the gateway's callback, not this page,
// unlocks access) by polling GET /api/orders/{id}/status. A launch's buyers wait on a PIX for a
// minute or more, many leave the tab open and never pay, and a PIX lives 30 minutes: polling
// every 2 s throughout was up to 900 requests an order. So the page polls often only while a
// payment is likely, never while it is hidden (the buyer is in their bank's app), and at once
// when it shows again, which is when a mobile buyer comes back having paid.

export interface OrderState {
  status: string
  redirect_url?: string | null
}

/** Milliseconds until the next poll, `waitedMs` into the wait. */
export function pollDelay(waitedMs: number): number {
  if (waitedMs < 2 * 60_000) return 2_000
  if (waitedMs < 10 * 60_000) return 5_000
  return 15_000
}

/**
 * Polls until `settled` says the order is settled (it redirects or shows the expiry), or until
 * `current` says a newer attempt took over. Polling outlives the page's countdown: a payment
 * confirmed in its last second still redirects.
 */
export function followOrder(
  orderId: string,
  opts: { current: () => boolean; settled: (order: OrderState) => boolean },
) {
  const started = Date.now()
  const stop = new AbortController()
  let timer: ReturnType<typeof setTimeout> | undefined
  let polling = false

  const poll = async (): Promise<void> => {
    clearTimeout(timer)
    if (!opts.current()) return stop.abort()
    if (polling) return
    polling = true
    const res = await fetch(`/api/orders/${orderId}/status`).catch(() => null)
    const order = res?.ok ? ((await res.json().catch(() => null)) as OrderState | null) : null
    polling = false
    if (!opts.current() || (order && opts.settled(order))) return stop.abort()
    if (!document.hidden) timer = setTimeout(poll, pollDelay(Date.now() - started))
  }
  document.addEventListener(
    'visibilitychange',
    () => {
      if (document.hidden) clearTimeout(timer)
      else poll()
    },
    { signal: stop.signal },
  )
  poll()
}
