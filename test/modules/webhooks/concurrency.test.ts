// Per-endpoint send windows (AIMD): fast answers widen an endpoint's window up to the cap,
// slow ones bring it back to the configured start, failures halve it down to one.
import { describe, expect, it } from 'vitest'
import {
  createEndpointWindows,
  FAST_MS,
  MAX_WINDOW,
} from '../../../src/modules/webhooks/concurrency.ts'

const fast = { ok: true, durationMs: 3 }
const slow = { ok: true, durationMs: FAST_MS + 1 }
const failed = { ok: false, durationMs: 10 }

describe('endpoint windows', () => {
  it('start at the configured concurrency and are not listed for the claim', () => {
    const windows = createEndpointWindows(4)
    expect(windows.limitOf('a')).toBe(4)
    expect(windows.widened()).toEqual({ endpointIds: [], limits: [] })
  })

  it('widen by one per fast answer, up to the cap', () => {
    const windows = createEndpointWindows(4)
    for (let i = 0; i < 10; i++) windows.record('a', fast)
    expect(windows.limitOf('a')).toBe(14)
    expect(windows.widened()).toEqual({ endpointIds: ['a'], limits: [14] })
    for (let i = 0; i < 1000; i++) windows.record('a', fast)
    expect(windows.limitOf('a')).toBe(MAX_WINDOW)
    expect(windows.limitOf('b')).toBe(4)
  })

  it('halve on a slow answer, never below the start', () => {
    const windows = createEndpointWindows(4)
    for (let i = 0; i < 20; i++) windows.record('a', fast)
    windows.record('a', slow)
    expect(windows.limitOf('a')).toBe(12)
    for (let i = 0; i < 5; i++) windows.record('a', slow)
    expect(windows.limitOf('a')).toBe(4)
    expect(windows.widened().endpointIds).toEqual([])
  })

  it('halve on a failure down to one, and a slow success does not widen it again', () => {
    const windows = createEndpointWindows(4)
    windows.record('a', failed)
    expect(windows.limitOf('a')).toBe(2)
    windows.record('a', failed)
    windows.record('a', failed)
    expect(windows.limitOf('a')).toBe(1)
    windows.record('a', slow)
    expect(windows.limitOf('a')).toBe(1)
    windows.record('a', fast)
    expect(windows.limitOf('a')).toBe(2)
  })

  it('a start above the cap is kept: fast answers never shrink it', () => {
    const windows = createEndpointWindows(MAX_WINDOW + 10)
    windows.record('a', fast)
    expect(windows.limitOf('a')).toBe(MAX_WINDOW + 10)
  })
})
