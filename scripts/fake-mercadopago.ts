// The Mercado Pago fake on its own, for driving the service by hand:
//   npx tsx scripts/fake-mercadopago.ts            (port 4100, or FAKE_MP_PORT)
// then start the service with PAYMENT_GATEWAY=mercadopago and the printed variables.
import { CONTROL_ROUTES } from '../test/fakes/mercadopago/controls.ts'
import { startFakeMercadoPago } from '../test/fakes/mercadopago.ts'

const mp = await startFakeMercadoPago({
  port: Number(process.env.FAKE_MP_PORT ?? 4100),
  accessToken: process.env.MERCADOPAGO_ACCESS_TOKEN,
  publicKey: process.env.MERCADOPAGO_PUBLIC_KEY,
  webhookSecret: process.env.MERCADOPAGO_WEBHOOK_SECRET,
  // A minute apart instead of Mercado Pago's 15: long enough to watch, short enough to wait.
  retryDelaysMs: [60_000, 60_000, 60_000],
})

console.log(`Fake Mercado Pago on ${mp.url} (MercadoPago.js at ${mp.url}/js/v2)

MERCADOPAGO_API_URL=${mp.url}
MERCADOPAGO_ACCESS_TOKEN=${mp.accessToken}
MERCADOPAGO_PUBLIC_KEY=${mp.publicKey}
MERCADOPAGO_WEBHOOK_SECRET=${mp.webhookSecret}

Controls:
${CONTROL_ROUTES.map((r) => `  ${r}`).join('\n')}
`)

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void mp.close().then(() => process.exit(0)))
}
