// Live API keys this process resolved lately, by their key's hash. An API request with a key
// seen in the last KEY_CACHE_TTL_MS skips the database's look-up: a round trip fewer on every
// request (issue 13, point 7; docs/ARCHITECTURE.md, "API keys remembered for ten seconds").
// A key revoked through this process is forgotten once the revocation commits; one revoked
// through another API process keeps working here until its entry expires.
import type { KeyIdentity } from '../../kit/http/auth.ts'

export const KEY_CACHE_TTL_MS = 10_000
/** Entries kept at most; past it the oldest go first (a Map iterates in insertion order). */
const MAX_KEYS = 10_000

export interface CachedKey {
  identity: KeyIdentity
  /** `last_used_at` as this process last read or wrote it (written at most once a minute). */
  lastUsedAt: Date | null
}

interface Entry extends CachedKey {
  expiresAt: number
}

export class KeyCache {
  readonly #entries = new Map<string, Entry>()
  /** Forgets so far: a look-up that began before one may have read a key since revoked. */
  #forgets = 0

  /** To pass to `set`, read before the look-up. */
  get revision(): number {
    return this.#forgets
  }

  /** The key of this hash, unless unknown here or older than KEY_CACHE_TTL_MS. */
  get(hash: string, now: Date): CachedKey | undefined {
    const entry = this.#entries.get(hash)
    if (entry && entry.expiresAt > now.getTime()) return entry
    if (entry) this.#entries.delete(hash)
    return undefined
  }

  /**
   * Remembers a key a look-up begun at `revision` found live, unless a key was forgotten since
   * (it may be this one, revoked after it was read). The entry returned is the one kept.
   */
  set(hash: string, key: CachedKey, now: Date, revision: number): CachedKey {
    const entry = { ...key, expiresAt: now.getTime() + KEY_CACHE_TTL_MS }
    if (revision !== this.#forgets) return entry
    this.#entries.delete(hash)
    if (this.#entries.size >= MAX_KEYS) {
      const oldest = this.#entries.keys().next().value
      if (oldest !== undefined) this.#entries.delete(oldest)
    }
    this.#entries.set(hash, entry)
    return entry
  }

  /** Forgets a key by its id (revocations are rare: a scan will do). */
  forget(keyId: string): void {
    this.#forgets++
    for (const [hash, entry] of this.#entries) {
      if (entry.identity.keyId === keyId) this.#entries.delete(hash)
    }
  }
}
