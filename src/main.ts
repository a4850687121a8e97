// `npm start`: API, hosted checkout and workers in one process (ROLE=api|worker splits them).
import { type Config, loadConfig } from './config.ts'
import { startService } from './service.ts'

let config: Config
try {
  config = loadConfig()
} catch (error) {
  // A configuration problem is the operator's to fix: the message names the variables, no stack.
  console.error(`Vitrine cannot start. ${(error as Error).message}`)
  process.exit(1)
}
const service = await startService(config)
const { seeded } = service
const url = config.baseUrl

const lines = [
  '',
  `Vitrine is running (${config.role}${config.production ? ', production' : ''}) on ${url} — database: ${config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`}`,
]
if (config.production && config.paymentGateway === 'sandbox')
  lines.push('  PAYMENT_GATEWAY=sandbox: payments are simulated, anyone can mark an order paid')
if (config.role !== 'worker') {
  lines.push(
    `  API reference     ${url}/docs   (OpenAPI: ${url}/openapi.json)`,
    `  Health            ${url}/health`,
    `  Creator dashboard ${url}/dashboard   (sign up at ${url}/cadastro)`,
    `  Members area      ${url}/members`,
  )
  if (seeded.demo) {
    lines.push(
      `  Demo checkout     ${config.checkoutUrl}/checkout/${seeded.demo.productSlug}`,
      `  Demo creator      ${seeded.demo.creator.email} / ${seeded.demo.creator.password}`,
    )
    if (seeded.demo.apiKey)
      lines.push(`  Demo API key      ${seeded.demo.apiKey}   (shown only on this first start)`)
  }
  if (seeded.admin)
    lines.push(
      `  Platform admin    ${seeded.admin.email}${config.admin ? '' : ` / ${seeded.admin.password}`}`,
      `  Back office       ${url}/admin   (PIX keys to verify, withdrawals to pay)`,
    )
  if (!config.smtpUrl && !config.production) lines.push(`  Dev mailbox       ${url}/dev/mailbox`)
}
console.log(`${lines.join('\n')}\n`)

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    service.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  })
}
