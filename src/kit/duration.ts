// Env durations: plain milliseconds or a number with a unit (`30s`, `15m`, `1h`, `1d`).
const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const

export function parseDuration(text: string): number {
  const match = /^\s*(\d+)\s*(ms|s|m|h|d)?\s*$/.exec(text)
  if (!match) throw new Error(`Invalid duration: "${text}" (use milliseconds or 30s, 15m, 1h, 1d)`)
  const unit = (match[2] ?? 'ms') as keyof typeof UNIT_MS
  return Number(match[1]) * UNIT_MS[unit]
}
