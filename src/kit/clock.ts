// The one source of "now". Tests and the sandbox move it forward; nothing reads Date.now() directly.

export interface Clock {
  now(): Date
  /** Moves this clock forward (sandbox control, tests). */
  advance(ms: number): void
}

export function systemClock(): Clock {
  let offsetMs = 0
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(ms) {
      offsetMs += ms
    },
  }
}
