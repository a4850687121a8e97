// `npm start`: API, hosted checkout and workers in one process (ROLE=api|worker splits them).
import { loadConfig } from './config.ts'
import { startService } from './service.ts'

const config = loadConfig()
const service = await startService(config)
const { seeded } = service
const url = config.baseUrl

const lines = [
  '',
  `Vitrine is running (${config.role}) on ${url} — database: ${config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`}`,
]
if (config.role !== 'worker') {
  lines.push(
    `  API reference     ${url}/docs   (OpenAPI: ${url}/openapi.json)`,
    `  Health            ${url}/health`,
    `  Creator dashboard ${url}/dashboard   (balance, withdrawals, sales, API keys)`,
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
  if (!config.smtpUrl) lines.push(`  Dev mailbox       ${url}/dev/mailbox`)
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
