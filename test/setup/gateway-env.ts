// The service's variables for a real adapter pointed at its local fake (SPEC §5a).

/** PAYMENT_GATEWAY=mercadopago against the Mercado Pago fake, MercadoPago.js its stand-in. */
export const mercadoPagoEnv = (mp: {
  url: string
  accessToken: string
  publicKey: string
  webhookSecret: string
}) => ({
  PAYMENT_GATEWAY: 'mercadopago',
  MERCADOPAGO_API_URL: mp.url,
  MERCADOPAGO_ACCESS_TOKEN: mp.accessToken,
  MERCADOPAGO_PUBLIC_KEY: mp.publicKey,
  MERCADOPAGO_WEBHOOK_SECRET: mp.webhookSecret,
  MERCADOPAGO_JS_URL: `${mp.url}/js/v2`,
})

/** The Asaas credentials for the Asaas fake; the caller picks gateway and/or payouts. */
export const asaasEnv = (fake: { url: string; apiKey: string }, webhookToken: string) => ({
  ASAAS_API_URL: fake.url,
  ASAAS_API_KEY: fake.apiKey,
  ASAAS_WEBHOOK_TOKEN: webhookToken,
})
