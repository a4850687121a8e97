import { describe, expect, it } from 'vitest'
import { KEY_CACHE_TTL_MS, KeyCache } from '../../../src/modules/accounts/key-cache.ts'

const identity = (keyId: string) => ({
  keyId,
  userId: 'u',
  accountId: 'a',
  scopes: ['read:orders'],
  isAdmin: false,
})
const at = (ms: number) => new Date(1_800_000_000_000 + ms)

describe('KeyCache', () => {
  it('keeps a key for KEY_CACHE_TTL_MS, and forgets it by id at once', () => {
    const keys = new KeyCache()
    keys.set('h1', { identity: identity('k1'), lastUsedAt: null }, at(0), keys.revision)
    expect(keys.get('h1', at(KEY_CACHE_TTL_MS - 1))?.identity.keyId).toBe('k1')
    expect(keys.get('h1', at(KEY_CACHE_TTL_MS))).toBeUndefined()
    keys.set('h1', { identity: identity('k1'), lastUsedAt: null }, at(0), keys.revision)
    keys.forget('k1')
    expect(keys.get('h1', at(1))).toBeUndefined()
  })

  it('does not keep what a look-up read before a key was forgotten', () => {
    const keys = new KeyCache()
    const revision = keys.revision
    // The look-up reads the row; meanwhile the key is revoked and forgotten; then it returns.
    keys.forget('k1')
    const entry = keys.set('h1', { identity: identity('k1'), lastUsedAt: null }, at(0), revision)
    expect(entry.identity.keyId).toBe('k1')
    expect(keys.get('h1', at(1))).toBeUndefined()
  })
})
