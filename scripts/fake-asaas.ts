// The fake Asaas API v3 as a standalone server, to run the service against it by hand:
//   npx tsx scripts/fake-asaas.ts --port 4010 --webhook-url http://127.0.0.1:3000/api/payments/callback/asaas --token <ASAAS_WEBHOOK_TOKEN>
// then start the service with ASAAS_API_URL=http://127.0.0.1:4010/v3 and ASAAS_API_KEY=<api key>.
// See docs/gateways/asaas.md for the controls under /_fake.
import { parseArgs } from 'node:util'
import { DEFAULT_API_KEY, startFakeAsaas } from '../test/fakes/asaas.ts'

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    'api-key': { type: 'string', default: DEFAULT_API_KEY },
    'webhook-url': { type: 'string' },
    token: { type: 'string' },
    'retry-seconds': { type: 'string', default: '30' },
  },
})

const fake = await startFakeAsaas({
  host: values.host,
  port: Number(values.port),
  apiKey: values['api-key'],
  webhook: {
    url: values['webhook-url'],
    authToken: values.token,
    retryDelayMs: Number(values['retry-seconds']) * 1000,
  },
  log: (line) => console.log(`${new Date().toISOString()} ${line}`),
})

const control = `${fake.origin}/_fake`
console.log(`Fake Asaas API on ${fake.url}  (access_token: ${fake.apiKey})
Webhooks → ${values['webhook-url'] ?? '(none: pass --webhook-url)'}${values.token ? ' with asaas-access-token' : ''}
Controls (POST, JSON body optional):
  ${control}/payments/<id>/pay            {"value": 12.34}?  the payer pays (Pix/boleto → RECEIVED)
  ${control}/payments/<id>/overdue | /chargeback {"reason"}?
  ${control}/transfers/<id>/done | /fail  {"reason"}?
  ${control}/webhooks/drop-next {"count"} | /pause | /resume | /<eventId>/redeliver {"times"}
  ${control}/lose-next-response | /fail-next-request  {"method","path","status"}?
  GET ${control}/requests | /webhooks | /balance
Card numbers: any well-formed card is approved (e.g. 4444444444444444); 5184019740373151 and 4916561358240741 are declined.`)

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => void fake.close().then(() => process.exit(0)))
