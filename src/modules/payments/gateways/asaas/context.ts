// What every part of the Asaas adapter works with: the configured client, the clock, a logger.
import type { Clock } from '../../../../kit/clock.ts'
import { type AsaasClient, type AsaasSettings, createAsaasClient } from './client.ts'

/** The logger calls the adapter makes (Fastify's logger has them). */
export interface AsaasLog {
  warn(details: object, message: string): void
}

export interface AsaasDeps {
  /** `config.asaas` (SPEC §5a): null when the ASAAS_* variables are not set. */
  config: { asaas: AsaasSettings | null }
  clock: Clock
  log?: AsaasLog | undefined
}

export interface AsaasContext {
  client: AsaasClient
  settings: AsaasSettings
  clock: Clock
  log: AsaasLog
}

const silent: AsaasLog = { warn: () => {} }

export function asaasContext(deps: AsaasDeps): AsaasContext {
  const settings = deps.config.asaas
  // Start-up refuses a missing credential (config.ts) before anything gets here.
  if (!settings) throw new Error('Asaas is not configured (ASAAS_API_KEY, ASAAS_WEBHOOK_TOKEN)')
  return {
    client: createAsaasClient(settings),
    settings,
    clock: deps.clock,
    log: deps.log ?? silent,
  }
}
