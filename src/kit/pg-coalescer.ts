// Statements that are each their own transaction (a checkout's order, say), arriving while every
// pooled connection is busy, go together when one frees: one write, one round trip, one commit
// for all of them (kit/pg-pipeline.ts), where each alone paid its own (issue 13). A statement
// that finds a connection free waits for nothing more than before; under load it waits, as
// before, for a connection, and shares it with those that waited beside it. Together they are
// one transaction: a later one sees an earlier one's rows, as it would once that committed.
// When PostgreSQL refuses one, all of them roll back and each runs again alone, so one
// statement's error is its own and every other one commits as if it had gone alone.
import type { CompiledQuery } from 'kysely'
import type pg from 'pg'
import { keepsConnection, type PipelineFailed } from './pg-pipeline.ts'
import type { PreparedRun, RunResult } from './pg-prepared.ts'

/** At most this many statements a pipeline: a transaction's locks are held until its end. */
const MAX_TOGETHER = 8

/** What a pooled connection must offer (kit/db.ts PreparingClient). */
export interface PipeliningClient extends pg.PoolClient {
  /** The statement's run for a pipeline on this connection; null: it must go alone. */
  pipelineMember(text: string, values: readonly unknown[]): PreparedRun | null
  runPipeline(members: PreparedRun[]): Promise<Promise<RunResult>[]>
}

interface Call {
  query: CompiledQuery
  resolve(result: RunResult): void
  reject(error: unknown): void
}

export class Coalescer {
  private waiting: Call[] = []
  /** A connection is asked for and not yet given. */
  private asking = false

  constructor(private readonly pool: pg.Pool) {}

  /** Runs `query` as its own transaction, possibly together with others. */
  run(query: CompiledQuery): Promise<RunResult> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ query, resolve, reject })
      this.ask()
    })
  }

  /** One request for a connection at a time: whatever waits when it comes goes with it. */
  private ask() {
    if (this.asking || this.waiting.length === 0) return
    this.asking = true
    this.pool.connect().then(
      (client) => {
        this.asking = false
        const calls = this.waiting.splice(0, MAX_TOGETHER)
        this.ask()
        void this.send(client as PipeliningClient, calls)
      },
      (error: unknown) => {
        this.asking = false
        for (const call of this.waiting.splice(0)) call.reject(error)
      },
    )
  }

  private async send(client: PipeliningClient, calls: Call[]) {
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
      if (unsent.length) {
        this.waiting.unshift(...unsent)
        this.ask()
      }
    }
  }
}
