import { availableParallelism } from 'node:os'
import { z } from 'zod'
import { parseDuration } from './kit/duration.ts'
import { percentToBasisPoints } from './kit/money.ts'

const duration = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      try {
        return parseDuration(text)
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message })
        return z.NEVER
      }
    })

const flag = (fallback: '0' | '1') =>
  z
    .enum(['0', '1', 'true', 'false', ''])
    .default(fallback)
    .transform((v) => v === '1' || v === 'true')

/** Payment gateway adapters (SPEC §5, §5a). */
export const PAYMENT_GATEWAYS = ['sandbox', 'asaas', 'mercadopago'] as const
/** How withdrawals are paid out (SPEC §5a). */
export const PAYOUT_PROVIDERS = ['sandbox', 'asaas', 'manual'] as const

export type PaymentGatewayName = (typeof PAYMENT_GATEWAYS)[number]
export type PayoutProviderName = (typeof PAYOUT_PROVIDERS)[number]

/**
 * SMTP connections each e-mail worker keeps open. A connection sends its mails one after
 * another, two round trips each: 20 carry ~650 mails/s to a server nearby, but only ~170–330
 * to a provider 30–60 ms away, less than a launch's two mails a sale at 100 sales/s. The
 * least keeps the slowest pass inside the mail lease (email/attempts.ts).
 */
export const SMTP_CONNECTIONS = { min: 10, max: 100, default: 20 } as const

/**
 * PostgreSQL connections of a process's main pool when DATABASE_POOL_SIZE is unset: twice the
 * cores it sees, 4 to 10. Statements beyond what the cores can run at once only wait inside
 * PostgreSQL, which costs it CPU of its own: on 2 cores, a launch's purchases cost PostgreSQL
 * ~20 % less CPU with 4 connections than with 10 in interleaved runs (docs/ARCHITECTURE.md,
 * "Few connections").
 */
export function defaultPoolSize(cores = availableParallelism()): number {
  return Math.min(10, Math.max(4, 2 * cores))
}

/** An optional secret: unset and empty are the same (an empty line in an env file). */
const secret = () =>
  z
    .string()
    .optional()
    .transform((v) => v?.trim() || undefined)

const EnvSchema = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  // Off behind a transaction-mode pooler (PgBouncer before 1.21), which cannot keep them.
  DATABASE_PREPARED_STATEMENTS: flag('1'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).optional(),
  BASE_URL: z.string().url().optional(),
  CHECKOUT_URL: z.string().url().optional(),
  APP_SECRET: z.string().min(32).optional(),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  SEED_DEMO: flag('1'),
  // No default here: development falls back to the sandbox, production must choose.
  PAYMENT_GATEWAY: z.enum(PAYMENT_GATEWAYS).optional(),
  SANDBOX_WEBHOOK_SECRET: z.string().min(16).optional(),
  ASAAS_API_URL: z.string().url().default('https://api.asaas.com/v3'),
  ASAAS_API_KEY: secret(),
  ASAAS_WEBHOOK_TOKEN: secret(),
  MERCADOPAGO_API_URL: z.string().url().default('https://api.mercadopago.com'),
  MERCADOPAGO_JS_URL: z.string().url().default('https://sdk.mercadopago.com/js/v2'),
  MERCADOPAGO_ACCESS_TOKEN: secret(),
  MERCADOPAGO_PUBLIC_KEY: secret(),
  MERCADOPAGO_WEBHOOK_SECRET: secret(),
  // No default here: the sandbox's own payouts with the sandbox gateway, else manual.
  PAYOUT_PROVIDER: z.enum(PAYOUT_PROVIDERS).optional(),
  SMTP_URL: z.string().optional(),
  SMTP_CONNECTIONS: z.coerce
    .number()
    .int()
    .min(SMTP_CONNECTIONS.min)
    .max(SMTP_CONNECTIONS.max)
    .default(SMTP_CONNECTIONS.default),
  MAIL_FROM: z.string().default('Vitrine <nao-responda@vitrine.local>'),
  ALLOW_HTTP_WEBHOOKS: flag('0'),
  // Requests under way in one process before new ones are shed (kit/http/load-shedding.ts).
  HTTP_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(100_000).default(256),
  TRUST_PROXY: flag('0'),
  CHECKOUT_CREATES_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default('1m,10m,1h,5h')
    .transform((text, ctx) => {
      try {
        return text.split(',').map(parseDuration)
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message })
        return z.NEVER
      }
    }),
  WEBHOOK_RETRY_BASE_MS: z
    .string()
    .optional()
    .transform((v) => (v ? parseDuration(v) : null)),
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  WEBHOOK_TIMEOUT_MS: duration('10s'),
  EMAIL_RETRY_BASE_MS: duration('30s'),
  PIX_EXPIRES_AFTER: duration('30m'),
  CARD_INSTALLMENT_INTEREST: z
    .string()
    .default('2.99')
    .transform((text, ctx) => {
      const trimmed = text.trim() || '2.99'
      const valid = /^\d{1,3}([.,]\d{1,2})?$/.test(trimmed)
      const percent = valid ? Number(trimmed.replace(',', '.')) : Number.NaN
      if (Number.isFinite(percent) && percent <= 100) return percentToBasisPoints(percent)
      ctx.addIssue({ code: 'custom', message: 'a monthly percent from 0 to 100, e.g. 2.99' })
      return z.NEVER
    }),
  CART_RECOVERY_AFTER: duration('1h'),
  SUBSCRIPTION_RENEWAL_NOTICE: duration('3d'),
  SUBSCRIPTION_GRACE_PERIOD: duration('7d'),
  WORKER_POLL_MS: duration('250ms'),
  SHUTDOWN_GRACE: duration('10s'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
})

export type Config = {
  env: string
  /** NODE_ENV=production (SPEC §14): no sandbox clock, no dev mailbox, no demo data. */
  production: boolean
  port: number
  host: string
  role: 'all' | 'api' | 'worker'
  dataDir: string
  databaseUrl: string | undefined
  /** PostgreSQL: parameterized statements prepared once per connection (kit/db.ts). */
  preparedStatements: boolean
  /** PostgreSQL: connections of the main pool (DATABASE_POOL_SIZE, else `defaultPoolSize`). */
  databasePoolSize: number
  /** Public address of the API; filled from the real port after listen when not set. */
  baseUrl: string
  checkoutUrl: string
  appSecret: string | undefined
  admin: { email: string; password: string } | undefined
  seedDemo: boolean
  paymentGateway: PaymentGatewayName
  payoutProvider: PayoutProviderName
  sandboxSecret: string | undefined
  /** Set when the Asaas adapter pays or takes money (PAYMENT_GATEWAY or PAYOUT_PROVIDER). */
  asaas: AsaasConfig | null
  /** Set when PAYMENT_GATEWAY=mercadopago. */
  mercadoPago: MercadoPagoConfig | null
  smtpUrl: string | undefined
  smtpConnections: number
  mailFrom: string
  allowHttpWebhooks: boolean
  trustProxy: boolean
  /** Requests under way in one process past which new ones get a 503 (load-shedding.ts). */
  httpMaxInFlight: number
  checkoutCreatesPerMinute: number
  /** Delay before each webhook retry (attempts 2…5), before jitter. */
  webhookRetryScheduleMs: number[]
  /** Deliveries to one endpoint in flight at once, over all worker processes. */
  webhookEndpointConcurrency: number
  webhookTimeoutMs: number
  emailRetryBaseMs: number
  pixExpiresAfterMs: number
  /** Monthly interest of card installments the buyer pays (Price table), in basis points. */
  cardInstallmentInterestBps: number
  cartRecoveryAfterMs: number
  /** How long before a period ends a PIX or boleto renewal charge is issued and e-mailed. */
  subscriptionRenewalNoticeMs: number
  /** How long after a period ends unpaid a subscription stays past_due before it is canceled. */
  subscriptionGraceMs: number
  workerPollMs: number
  /** How long a stopping process waits for requests under way before it cuts their connections. */
  shutdownGraceMs: number
  logLevel: string
  /** True when BASE_URL / CHECKOUT_URL were not given and follow the listening port. */
  urlsFollowPort: boolean
}

export interface AsaasConfig {
  /** Without a trailing slash, e.g. https://api.asaas.com/v3 (sandbox: api-sandbox.asaas.com). */
  apiUrl: string
  apiKey: string
  /** What Asaas sends in `asaas-access-token` with every webhook. */
  webhookToken: string
}

export interface MercadoPagoConfig {
  /** Without a trailing slash, e.g. https://api.mercadopago.com. */
  apiUrl: string
  accessToken: string
  /** The public key MercadoPago.js tokenizes cards with on the checkout page. */
  publicKey: string
  /** The secret the `x-signature` of notifications is an HMAC with. */
  webhookSecret: string
  /** MercadoPago.js, which the checkout page loads (a local stand-in in tests). */
  jsUrl: string
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new Error(`Invalid environment:\n${lines.join('\n')}`)
  }
  const e = parsed.data
  const production = e.NODE_ENV === 'production'
  if (production) refuseUnsafeProduction(e)
  const paymentGateway = e.PAYMENT_GATEWAY ?? 'sandbox'
  const payoutProvider = e.PAYOUT_PROVIDER ?? (paymentGateway === 'sandbox' ? 'sandbox' : 'manual')
  const adapters = adapterConfigs(e, paymentGateway, payoutProvider)
  const local = `http://localhost:${e.PORT}`
  return {
    env: e.NODE_ENV,
    production,
    port: e.PORT,
    host: e.HOST,
    role: e.ROLE,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL || undefined,
    preparedStatements: e.DATABASE_PREPARED_STATEMENTS,
    databasePoolSize: e.DATABASE_POOL_SIZE ?? defaultPoolSize(),
    baseUrl: stripSlash(e.BASE_URL ?? local),
    checkoutUrl: stripSlash(e.CHECKOUT_URL ?? e.BASE_URL ?? local),
    appSecret: e.APP_SECRET,
    admin:
      e.ADMIN_EMAIL && e.ADMIN_PASSWORD
        ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD }
        : undefined,
    seedDemo: e.SEED_DEMO,
    paymentGateway,
    payoutProvider,
    sandboxSecret: e.SANDBOX_WEBHOOK_SECRET,
    ...adapters,
    smtpUrl: e.SMTP_URL || undefined,
    smtpConnections: e.SMTP_CONNECTIONS,
    mailFrom: e.MAIL_FROM,
    allowHttpWebhooks: e.ALLOW_HTTP_WEBHOOKS,
    trustProxy: e.TRUST_PROXY,
    httpMaxInFlight: e.HTTP_MAX_IN_FLIGHT,
    checkoutCreatesPerMinute: e.CHECKOUT_CREATES_PER_MINUTE,
    // WEBHOOK_RETRY_BASE_MS (tests, development) doubles from a base instead of the schedule.
    webhookRetryScheduleMs: e.WEBHOOK_RETRY_BASE_MS
      ? [1, 2, 4, 8].map((k) => k * e.WEBHOOK_RETRY_BASE_MS!)
      : e.WEBHOOK_RETRY_SCHEDULE,
    webhookEndpointConcurrency: e.WEBHOOK_ENDPOINT_CONCURRENCY,
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    emailRetryBaseMs: e.EMAIL_RETRY_BASE_MS,
    pixExpiresAfterMs: e.PIX_EXPIRES_AFTER,
    cardInstallmentInterestBps: e.CARD_INSTALLMENT_INTEREST,
    cartRecoveryAfterMs: e.CART_RECOVERY_AFTER,
    subscriptionRenewalNoticeMs: e.SUBSCRIPTION_RENEWAL_NOTICE,
    subscriptionGraceMs: e.SUBSCRIPTION_GRACE_PERIOD,
    workerPollMs: e.WORKER_POLL_MS,
    shutdownGraceMs: e.SHUTDOWN_GRACE,
    logLevel: e.LOG_LEVEL,
    urlsFollowPort: !e.BASE_URL,
  }
}

type Env = z.infer<typeof EnvSchema>

/**
 * The credentials of the adapters chosen, or a refusal naming every missing variable at once
 * (a real adapter without its credentials would fail on the first sale, not at start-up).
 */
function adapterConfigs(
  e: Env,
  gateway: PaymentGatewayName,
  payouts: PayoutProviderName,
): Pick<Config, 'asaas' | 'mercadoPago'> {
  const missing: string[] = []
  const need = (variable: keyof Env, because: string) => {
    if (!e[variable]) missing.push(`${variable} is required when ${because}`)
  }
  // The Asaas webhook carries transfer events too, so payouts need its token as well.
  const asaasFor = [
    gateway === 'asaas' && 'PAYMENT_GATEWAY=asaas',
    payouts === 'asaas' && 'PAYOUT_PROVIDER=asaas',
  ].filter((why): why is string => !!why)
  for (const variable of ['ASAAS_API_KEY', 'ASAAS_WEBHOOK_TOKEN'] as const) {
    if (asaasFor.length) need(variable, asaasFor.join(' or '))
  }
  if (gateway === 'mercadopago') {
    for (const variable of [
      'MERCADOPAGO_ACCESS_TOKEN',
      'MERCADOPAGO_PUBLIC_KEY',
      'MERCADOPAGO_WEBHOOK_SECRET',
    ] as const) {
      need(variable, 'PAYMENT_GATEWAY=mercadopago')
    }
  }
  if (missing.length)
    throw new Error(`Missing gateway credentials:\n${missing.map((m) => `  ${m}`).join('\n')}`)
  return {
    asaas: asaasFor.length
      ? {
          apiUrl: stripSlash(e.ASAAS_API_URL),
          apiKey: e.ASAAS_API_KEY!,
          webhookToken: e.ASAAS_WEBHOOK_TOKEN!,
        }
      : null,
    mercadoPago:
      gateway === 'mercadopago'
        ? {
            apiUrl: stripSlash(e.MERCADOPAGO_API_URL),
            accessToken: e.MERCADOPAGO_ACCESS_TOKEN!,
            publicKey: e.MERCADOPAGO_PUBLIC_KEY!,
            webhookSecret: e.MERCADOPAGO_WEBHOOK_SECRET!,
            jsUrl: e.MERCADOPAGO_JS_URL,
          }
        : null,
  }
}

/**
 * Production refuses to start on settings that are only safe on a developer's machine, naming
 * every variable at once so one restart fixes them all.
 */
function refuseUnsafeProduction(e: Env): void {
  const problems: string[] = []
  if (!e.APP_SECRET)
    problems.push(
      'APP_SECRET: required (at least 32 characters); it keys CSRF and checkout tokens and encrypts webhook secrets',
    )
  if (!e.PAYMENT_GATEWAY)
    problems.push(
      `PAYMENT_GATEWAY: required, name the gateway (${PAYMENT_GATEWAYS.join(', ')}); the sandbox moves no real money, so it runs in production only when chosen on purpose (a demo)`,
    )
  const asaasUsed = e.PAYMENT_GATEWAY === 'asaas' || e.PAYOUT_PROVIDER === 'asaas'
  const plain = (url: string) => !url.startsWith('https://')
  if (asaasUsed && plain(e.ASAAS_API_URL))
    problems.push('ASAAS_API_URL: must be https; the API key travels with every request')
  if (e.PAYMENT_GATEWAY === 'mercadopago' && plain(e.MERCADOPAGO_API_URL))
    problems.push('MERCADOPAGO_API_URL: must be https; the access token travels with every request')
  if (e.PAYMENT_GATEWAY === 'mercadopago' && plain(e.MERCADOPAGO_JS_URL))
    problems.push(
      'MERCADOPAGO_JS_URL: must be https; the script reads the card on the checkout page',
    )
  if (e.PAYOUT_PROVIDER === 'sandbox' && e.PAYMENT_GATEWAY !== 'sandbox')
    problems.push(
      'PAYOUT_PROVIDER: sandbox pays nothing out; with a real gateway choose asaas or manual',
    )
  if (!e.SMTP_URL)
    problems.push(
      'SMTP_URL: required; e-mails carry log-in links and production has no dev mailbox to read them in',
    )
  if (!e.BASE_URL)
    problems.push(
      `BASE_URL: required, the public https address; links in e-mails would point at http://localhost:${e.PORT}`,
    )
  if (e.ALLOW_HTTP_WEBHOOKS)
    problems.push(
      'ALLOW_HTTP_WEBHOOKS: must be off; it lets webhook URLs reach loopback and private addresses',
    )
  if (problems.length)
    throw new Error(
      `Unsafe configuration for production (NODE_ENV=production):\n${problems.map((p) => `  ${p}`).join('\n')}`,
    )
}

/** After listening (maybe on an ephemeral port): record it and point default URLs at it. */
export function bindUrlsToPort(config: Config, port: number): void {
  config.port = port
  if (!config.urlsFollowPort) return
  config.baseUrl = `http://localhost:${port}`
  config.checkoutUrl = config.baseUrl
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, '')
}
