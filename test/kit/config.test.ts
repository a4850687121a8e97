// Gateway and payout configuration (SPEC §5a): the adapter chosen must have its credentials,
// and start-up names the missing variable; the defaults stay the sandbox's. And the mail pool's
// size, within what the mail lease allows; and the database pool's.
import { describe, expect, it } from 'vitest'
import { defaultPoolSize, loadConfig } from '../../src/config.ts'

const asaas = { ASAAS_API_KEY: '$aact_test_key', ASAAS_WEBHOOK_TOKEN: 'whk-token-0123456789' }
const mercadoPago = {
  MERCADOPAGO_ACCESS_TOKEN: 'TEST-123-access',
  MERCADOPAGO_PUBLIC_KEY: 'TEST-public-key',
  MERCADOPAGO_WEBHOOK_SECRET: 'mp-webhook-secret',
}
const production = {
  NODE_ENV: 'production',
  APP_SECRET: 'x'.repeat(32),
  SMTP_URL: 'smtp://127.0.0.1:2525',
  BASE_URL: 'https://vitrine.example',
}

describe('payment gateway configuration', () => {
  it('defaults to the sandbox and its own payouts, with no real adapter configured', () => {
    expect(loadConfig({})).toMatchObject({
      paymentGateway: 'sandbox',
      payoutProvider: 'sandbox',
      asaas: null,
      mercadoPago: null,
    })
  })

  it('asaas: needs the API key and the webhook token, naming each one missing', () => {
    expect(() => loadConfig({ PAYMENT_GATEWAY: 'asaas' })).toThrow(
      /ASAAS_API_KEY is required when PAYMENT_GATEWAY=asaas\n\s+ASAAS_WEBHOOK_TOKEN is required when PAYMENT_GATEWAY=asaas/,
    )
    expect(() =>
      loadConfig({ PAYMENT_GATEWAY: 'asaas', ASAAS_API_KEY: asaas.ASAAS_API_KEY }),
    ).toThrow(
      /^(?!.*ASAAS_API_KEY)[\s\S]*ASAAS_WEBHOOK_TOKEN is required when PAYMENT_GATEWAY=asaas/,
    )
    // An empty line in an env file is no credential.
    expect(() => loadConfig({ PAYMENT_GATEWAY: 'asaas', ...asaas, ASAAS_API_KEY: ' ' })).toThrow(
      'ASAAS_API_KEY is required when PAYMENT_GATEWAY=asaas',
    )
    const config = loadConfig({ PAYMENT_GATEWAY: 'asaas', ...asaas })
    expect(config).toMatchObject({
      paymentGateway: 'asaas',
      payoutProvider: 'manual',
      asaas: {
        apiUrl: 'https://api.asaas.com/v3',
        apiKey: asaas.ASAAS_API_KEY,
        webhookToken: asaas.ASAAS_WEBHOOK_TOKEN,
      },
      mercadoPago: null,
    })
    // The base URL is configurable (the gateway's sandbox, a local fake), without its slash.
    const local = loadConfig({
      PAYMENT_GATEWAY: 'asaas',
      ...asaas,
      ASAAS_API_URL: 'http://127.0.0.1:4010/v3/',
    })
    expect(local.asaas?.apiUrl).toBe('http://127.0.0.1:4010/v3')
  })

  it('mercadopago: needs the access token, the public key and the webhook secret', () => {
    for (const variable of Object.keys(mercadoPago)) {
      expect(() =>
        loadConfig({ PAYMENT_GATEWAY: 'mercadopago', ...mercadoPago, [variable]: '' }),
      ).toThrow(`${variable} is required when PAYMENT_GATEWAY=mercadopago`)
    }
    const config = loadConfig({
      PAYMENT_GATEWAY: 'mercadopago',
      ...mercadoPago,
      MERCADOPAGO_API_URL: 'http://127.0.0.1:4020',
    })
    expect(config).toMatchObject({
      paymentGateway: 'mercadopago',
      payoutProvider: 'manual',
      asaas: null,
      mercadoPago: {
        apiUrl: 'http://127.0.0.1:4020',
        accessToken: mercadoPago.MERCADOPAGO_ACCESS_TOKEN,
        publicKey: mercadoPago.MERCADOPAGO_PUBLIC_KEY,
        webhookSecret: mercadoPago.MERCADOPAGO_WEBHOOK_SECRET,
        jsUrl: 'https://sdk.mercadopago.com/js/v2',
      },
    })
  })

  it('PAYOUT_PROVIDER=asaas needs the Asaas credentials whatever the gateway', () => {
    expect(() =>
      loadConfig({ PAYMENT_GATEWAY: 'mercadopago', ...mercadoPago, PAYOUT_PROVIDER: 'asaas' }),
    ).toThrow('ASAAS_API_KEY is required when PAYOUT_PROVIDER=asaas')
    expect(() => loadConfig({ PAYMENT_GATEWAY: 'asaas', PAYOUT_PROVIDER: 'asaas' })).toThrow(
      'ASAAS_API_KEY is required when PAYMENT_GATEWAY=asaas or PAYOUT_PROVIDER=asaas',
    )
    const config = loadConfig({
      PAYMENT_GATEWAY: 'mercadopago',
      ...mercadoPago,
      ...asaas,
      PAYOUT_PROVIDER: 'asaas',
    })
    expect(config).toMatchObject({
      payoutProvider: 'asaas',
      asaas: { apiKey: asaas.ASAAS_API_KEY },
    })
  })

  it('refuses an unknown gateway or payout provider', () => {
    expect(() => loadConfig({ PAYMENT_GATEWAY: 'stripe' })).toThrow(/PAYMENT_GATEWAY/)
    expect(() => loadConfig({ PAYOUT_PROVIDER: 'ted' })).toThrow(/PAYOUT_PROVIDER/)
  })

  it('production: still names a missing PAYMENT_GATEWAY; sandbox payouts only with the sandbox', () => {
    expect(() => loadConfig(production)).toThrow(/PAYMENT_GATEWAY: required/)
    expect(() =>
      loadConfig({ ...production, PAYMENT_GATEWAY: 'asaas', ...asaas, PAYOUT_PROVIDER: 'sandbox' }),
    ).toThrow(/PAYOUT_PROVIDER: sandbox pays nothing out/)
    expect(() => loadConfig({ ...production, PAYMENT_GATEWAY: 'asaas' })).toThrow(
      'ASAAS_API_KEY is required when PAYMENT_GATEWAY=asaas',
    )
    // Credentials never travel in clear in production (a local fake is for development).
    expect(() =>
      loadConfig({
        ...production,
        PAYMENT_GATEWAY: 'asaas',
        ...asaas,
        ASAAS_API_URL: 'http://127.0.0.1:4010/v3',
      }),
    ).toThrow(/ASAAS_API_URL: must be https/)
    expect(() =>
      loadConfig({
        ...production,
        PAYMENT_GATEWAY: 'mercadopago',
        ...mercadoPago,
        MERCADOPAGO_API_URL: 'http://127.0.0.1:4020',
        MERCADOPAGO_JS_URL: 'http://127.0.0.1:4020/js/v2',
      }),
    ).toThrow(/MERCADOPAGO_API_URL: must be https[\s\S]*MERCADOPAGO_JS_URL: must be https/)
    expect(loadConfig({ ...production, PAYMENT_GATEWAY: 'asaas', ...asaas })).toMatchObject({
      production: true,
      paymentGateway: 'asaas',
      payoutProvider: 'manual',
    })
  })
})

describe('mail configuration', () => {
  it('takes SMTP_CONNECTIONS from 10 (the mail lease allows no fewer) to 100', () => {
    expect(loadConfig({}).smtpConnections).toBe(20)
    expect(loadConfig({ SMTP_CONNECTIONS: '60' }).smtpConnections).toBe(60)
    expect(() => loadConfig({ SMTP_CONNECTIONS: '5' })).toThrow(/SMTP_CONNECTIONS/)
    expect(() => loadConfig({ SMTP_CONNECTIONS: '500' })).toThrow(/SMTP_CONNECTIONS/)
  })
})

describe('database pool', () => {
  it('sizes the pool at twice the cores, 4 to 10, unless DATABASE_POOL_SIZE says (1–100)', () => {
    expect([1, 2, 3, 5, 16].map((cores) => defaultPoolSize(cores))).toEqual([4, 4, 6, 10, 10])
    expect(loadConfig({}).databasePoolSize).toBe(defaultPoolSize())
    expect(loadConfig({ DATABASE_POOL_SIZE: '25' }).databasePoolSize).toBe(25)
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE/)
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '101' })).toThrow(/DATABASE_POOL_SIZE/)
  })
})
