// How many deliveries one worker keeps in flight to each endpoint: a window per endpoint that
// adapts to the endpoint's answers (AIMD, as TCP does). It starts at
// WEBHOOK_ENDPOINT_CONCURRENCY; every fast success widens it by one, up to MAX_WINDOW, so an
// endpoint that answers in milliseconds soon takes a thousand deliveries a second; a slow
// success shrinks it by half, never below the start, and a failure (error, time-out, non-2xx)
// by half down to one, so an endpoint that struggles gets fewer requests at once, not more.
import type { SendResult } from './sender.ts'

/** The most deliveries in flight to one endpoint from one worker (or the start, if higher). */
export const MAX_WINDOW = 64
/** An answer slower than this counts as the endpoint slowing down. */
export const FAST_MS = 250
/** Windows remembered; past this many endpoints the map starts afresh (all back to start). */
const REMEMBERED = 10_000

export interface EndpointWindows {
  /** Endpoints whose window differs from the start, with their windows (for the claim). */
  widened(): { endpointIds: string[]; limits: number[] }
  /** Adapts the endpoint's window to one attempt's result. */
  record(endpointId: string, result: Pick<SendResult, 'ok' | 'durationMs'>): void
  limitOf(endpointId: string): number
}

export function createEndpointWindows(initial: number): EndpointWindows {
  const windows = new Map<string, number>()
  const max = Math.max(MAX_WINDOW, initial)
  const limitOf = (endpointId: string) => windows.get(endpointId) ?? initial
  return {
    limitOf,
    widened() {
      const endpointIds: string[] = []
      const limits: number[] = []
      for (const [id, limit] of windows) {
        endpointIds.push(id)
        limits.push(limit)
      }
      return { endpointIds, limits }
    },
    record(endpointId, result) {
      const current = limitOf(endpointId)
      const next = !result.ok
        ? Math.max(1, Math.floor(current / 2))
        : result.durationMs <= FAST_MS
          ? Math.min(max, current + 1)
          : Math.max(Math.min(initial, current), Math.floor(current / 2))
      if (next === initial) windows.delete(endpointId)
      else {
        if (windows.size >= REMEMBERED && !windows.has(endpointId)) windows.clear()
        windows.set(endpointId, next)
      }
    },
  }
}
