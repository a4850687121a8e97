// Statements that are each their own transaction (a checkout's order, say), arriving while
// others are on their way, go together on the next connection: one write, one round trip, one
// commit for all of them (kit/pg-pipeline.ts), where each alone paid its own (issue 13). A
// statement arriving when none is on its way goes at once; under load it waits for the ones on
// their way (a few milliseconds) and shares a connection with those that waited beside it.
// Together they are one transaction: a later one sees an earlier one's rows, as it would once
// that committed. When PostgreSQL refuses one, all of them roll back and each runs again alone,
// so one statement's error is its own and every other one commits as if it had gone alone.
// Never from inside a transaction: its caller, waiting here, could wait for callers that wait
// on that transaction's locks.
import type { CompiledQuery } from 'kysely'
import type pg from 'pg'
import { type Around, keepsConnection, type PipelineFailed } from './pg-pipeline.ts'
import type { PreparedRun, RunResult } from './pg-prepared.ts'

/** At most this many callers together: a transaction's locks are held until its end. */
export const MAX_TOGETHER = 8

/** What a pooled connection must offer (kit/db.ts PreparingClient). */
export interface PipeliningClient extends pg.PoolClient {
  /** The statement's run for a pipeline on this connection; null: it must go alone. */
  pipelineMember(text: string, values: readonly unknown[]): PreparedRun | null
  runPipeline(members: PreparedRun[], around?: Around): Promise<Promise<RunResult>[]>
}

/**
 * Callers waiting for a connection, asked of the pool one request at a time: whatever waits
 * when the connection comes (at most MAX_TOGETHER) goes on it together. While callers are on a
 * connection, the next caller waits for them to finish, unless a full load waits: so under load
 * callers go together rather than each on a connection of its own while the pool has one, and a
 * load larger than one connection carries takes more, as callers alone would.
 */
export abstract class Gathering<Call extends { reject(error: unknown): void }> {
  private waiting: Call[] = []
  /** A connection is asked for and not yet given. */
  private asking = false
  /** Connections on which callers are now. */
  private sending = 0

  constructor(private readonly pool: pg.Pool) {}

  /** Sends `calls` on `client`, and releases it. */
  protected abstract send(client: PipeliningClient, calls: Call[]): Promise<void>

  protected enqueue(call: Call) {
    this.waiting.push(call)
    this.ask()
  }

  /** Calls that could not go on their connection wait for the next one, first in line. */
  protected requeue(calls: Call[]) {
    this.waiting.unshift(...calls)
    this.ask()
  }

  private ask() {
    if (this.asking || this.waiting.length === 0) return
    if (this.sending > 0 && this.waiting.length < MAX_TOGETHER) return
    this.asking = true
    this.pool.connect().then(
      (client) => {
        this.asking = false
        const calls = this.waiting.splice(0, MAX_TOGETHER)
        this.sending++
        void this.send(client as PipeliningClient, calls).finally(() => {
          this.sending--
          this.ask()
        })
        this.ask()
      },
      (error: unknown) => {
        this.asking = false
        for (const call of this.waiting.splice(0)) call.reject(error)
      },
    )
  }
}

interface Call {
  query: CompiledQuery
  /** The contended row the statement locks (inLockOrder), if any. */
  locks: string | undefined
  resolve(result: RunResult): void
  reject(error: unknown): void
}

export class Coalescer extends Gathering<Call> {
  /**
   * Runs `query` as its own transaction, possibly together with others. `locks`: the row others
   * may lock too that it locks (a rate-limit bucket), which sets its place in a batch.
   */
  run(query: CompiledQuery, locks?: string): Promise<RunResult> {
    return new Promise((resolve, reject) => {
      this.enqueue({ query, locks, resolve, reject })
    })
  }

  protected async send(client: PipeliningClient, gathered: Call[]) {
    const calls = inLockOrder(gathered)
    /** The connection failed: it is dropped, and the calls not yet sent wait for another. */
    let broken: Error | undefined
    let unsent: Call[] = []
    try {
      const members = calls.map((call) =>
        client.pipelineMember(call.query.sql, call.query.parameters),
      )
      const ready = members.filter((member): member is PreparedRun => member !== null)
      // Alone: a statement with no other, or one not yet prepared on this connection (its first
      // run there, which prepares it).
      let alone = ready.length > 1 ? calls.filter((_, i) => !members[i]) : calls
      if (ready.length > 1) {
        const together = calls.filter((_, i) => members[i])
        try {
          const results = await client.runPipeline(ready)
          together.forEach((call, i) => {
            results[i]!.then(call.resolve, call.reject)
          })
        } catch (error) {
          const failed = error as PipelineFailed
          if (failed.rolledBack) alone = calls
          else {
            // Committed or not, nobody knows: each caller hears so, as from a lone statement.
            for (const call of together) call.reject(failed.cause)
            broken = failed.cause as Error
            unsent = alone
            return
          }
        }
      }
      for (const [i, call] of alone.entries()) {
        try {
          call.resolve(await client.query(call.query.sql, [...call.query.parameters]))
        } catch (error) {
          call.reject(error)
          if (!keepsConnection(error)) {
            broken = error as Error
            unsent = alone.slice(i + 1)
            return
          }
        }
      }
    } finally {
      client.release(broken)
      if (unsent.length) this.requeue(unsent)
    }
  }
}

/**
 * A batch holds each row it locks until its commit, so two batches on two connections that lock
 * two shared rows in opposite orders would deadlock (until PostgreSQL ends one, after a second).
 * Statements naming the row they lock go in that row's order, after the others in theirs: every
 * batch takes shared rows in one order, and none waits on another while holding what it wants.
 */
function inLockOrder(calls: Call[]): Call[] {
  if (!calls.some((call) => call.locks !== undefined)) return calls
  const free = calls.filter((call) => call.locks === undefined)
  const locking = calls.filter((call) => call.locks !== undefined)
  locking.sort((a, b) => (a.locks! < b.locks! ? -1 : a.locks! > b.locks! ? 1 : 0))
  return [...free, ...locking]
}
