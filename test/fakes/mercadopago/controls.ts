// The fake's control surface for driving it by hand (`/_fake/…`), clearly apart from the API.
// In-process tests use the same moves through the object `startFakeMercadoPago` returns.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { escapeHtml } from '../../../src/web/html.ts'
import type { CardOutcome } from './cards.ts'
import { ApiError, sendJson, sendText } from './http.ts'
import * as moves from './moves.ts'
import type { DeliveryMode, Forgery } from './notifier.ts'
import type { Payment } from './payments.ts'
import { type FakeState, moved, paymentOf, resourceOf } from './state.ts'

export const CONTROL_ROUTES = [
  'GET  /_fake/payments',
  'POST /_fake/payments/{id}/approve | reject?detail= | expire | chargeback | resend',
  'POST /_fake/payments/{id}/forge?how=wrong-secret|unsigned|tampered-id|stale',
  'POST /_fake/cards/{token}/outcome?code=APRO|OTHE|CONT|CALL|FUND|SECU|EXPI|FORM',
  'POST /_fake/delivery?mode=once|twice|concurrently|never',
  'POST /_fake/lose-next-answer?method=&path=',
  'POST /_fake/fail-next?status=500&method=&path=',
  'GET  /_fake/requests',
  'GET  /_fake/deliveries',
  'GET  /_fake/pay/{id}  (the PIX/boleto page behind ticket_url and external_resource_url)',
]

export async function handleControl(
  state: FakeState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
) {
  const q = url.searchParams
  const parts = url.pathname.split('/').filter(Boolean).slice(1)
  const [what, id, action] = parts
  const post = req.method === 'POST'
  try {
    if (what === 'pay' && id && !post) {
      sendText(res, 200, 'text/html', payPage(state, paymentOf(state, id)))
    } else if (what === 'payments' && id && post) {
      const p = paymentOf(state, id)
      const body = runAction(state, p, action ?? '', q)
      if (q.get('then') === 'page') {
        res.writeHead(303, { location: `/_fake/pay/${p.id}` }).end()
      } else sendJson(res, 200, body)
    } else if (what === 'payments' && !post) {
      sendJson(
        res,
        200,
        [...state.payments.values()].map((p) => resourceOf(state, p)),
      )
    } else if (what === 'cards' && id && action === 'outcome' && post) {
      state.cardOutcomes.set(id, (q.get('code') ?? 'APRO') as CardOutcome)
      sendJson(res, 200, { token: id, outcome: state.cardOutcomes.get(id) })
    } else if (what === 'delivery' && post) {
      state.notifier.mode = (q.get('mode') ?? 'once') as DeliveryMode
      sendJson(res, 200, { mode: state.notifier.mode })
    } else if ((what === 'lose-next-answer' || what === 'fail-next') && post) {
      const kind = what === 'fail-next' ? 'fail' : 'lose'
      const fault = {
        kind,
        status: Number(q.get('status') ?? 500),
        method: q.get('method') ?? undefined,
        path: q.get('path') ?? undefined,
      } as const
      state.faults.push(fault)
      sendJson(res, 200, fault)
    } else if (what === 'requests' && !post) {
      sendJson(res, 200, state.requests)
    } else if (what === 'deliveries' && !post) {
      sendJson(res, 200, state.notifier.deliveries)
    } else {
      sendJson(res, what ? 404 : 200, { routes: CONTROL_ROUTES })
    }
  } catch (err) {
    if (!(err instanceof ApiError)) throw err
    sendJson(res, err.status, err.body)
  }
}

function runAction(state: FakeState, p: Payment, action: string, q: URLSearchParams) {
  const now = state.now()
  switch (action) {
    case 'approve':
      return moved(state, p, (x) => moves.approve(x, now))
    case 'reject':
      return moved(state, p, (x) => moves.reject(x, now, q.get('detail') ?? undefined))
    case 'expire':
      return moved(state, p, (x) => moves.expire(x, now))
    case 'chargeback':
      return moved(state, p, (x) => moves.chargeback(x, now))
    case 'resend':
      return { resent: state.notifier.resend(p.id) }
    case 'forge':
      if (!p.notificationUrl)
        throw new ApiError(400, 'bad_request', 'payment has no notification_url')
      state.notifier.forge(p.id, p.notificationUrl, (q.get('how') ?? 'wrong-secret') as Forgery)
      return { forged: true }
    default:
      throw new ApiError(404, 'not_found', `unknown action ${action}`)
  }
}

/** A bare stand-in for Mercado Pago's PIX / boleto page, with a button that pays it. */
function payPage(state: FakeState, p: Payment): string {
  const qr = state.qrImages.get(p.id)
  const code = p.pix?.qrCode ?? p.boleto?.digitableLine ?? ''
  const button =
    p.status === 'pending'
      ? `<form method="post" action="/_fake/payments/${p.id}/approve?then=page"><button>Pagar (fake)</button></form>`
      : ''
  return `<!doctype html><html lang="pt-BR"><meta charset="utf-8"><title>Pagamento ${p.id}</title>
<h1>Pagamento ${p.id}: ${escapeHtml(p.status)} (${escapeHtml(p.statusDetail)})</h1>
${qr ? `<img alt="QR Code PIX" src="data:image/png;base64,${qr}">` : ''}
<p><code>${escapeHtml(code)}</code></p>${button}</html>`
}
