import { describe, expect, it } from 'vitest'
import { isUuid, uuidv7 } from '../../src/kit/ids.ts'

describe('uuidv7', () => {
  it('is a version 7 UUID carrying its millisecond', () => {
    const id = uuidv7(Date.UTC(2026, 10, 23, 12))
    expect(isUuid(id)).toBe(true)
    expect(id[14]).toBe('7')
    expect(['8', '9', 'a', 'b']).toContain(id[19])
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(Date.UTC(2026, 10, 23, 12))
  })

  it('sorts in creation order within one millisecond', () => {
    const ms = Date.UTC(2026, 10, 23, 12, 0, 1)
    const ids = Array.from({ length: 1000 }, () => uuidv7(ms))
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(1000)
  })
})
