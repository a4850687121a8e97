// Several prepared statements sent in one write and ended by one Sync (issue 13): PostgreSQL
// runs every statement before a Sync in one implicit transaction, so they share one round trip
// and one commit, and an error in any of them rolls all of them back (the rest are skipped until
// the Sync). Each member is a PreparedRun already parsed, described and typed on the connection
// (PreparedRun.readyOn): its answers are DataRows and a CommandComplete, in the order sent.
// Inside an explicit transaction (kit/pg-shared-tx.ts) the Sync commits nothing: the pipeline
// may open that transaction with a BEGIN ahead of its members and close it with a COMMIT after.
import pg from 'pg'
import {
  type PreparedRun,
  type RunResult,
  type WireConnection,
  writeUnnamed,
} from './pg-prepared.ts'

/** Why a pipeline failed, and whether its statements are known to have left nothing. */
export class PipelineFailed extends Error {
  constructor(
    override readonly cause: unknown,
    /**
     * True when nothing was committed: nothing was sent, or PostgreSQL answered an ERROR (the
     * implicit transaction rolled back, the connection fine). False when the connection failed
     * or the server ended it (FATAL): whether the commit happened is unknown.
     */
    readonly rolledBack: boolean,
  ) {
    super(`pipeline failed: ${(cause as Error)?.message ?? cause}`)
  }
}

/**
 * The server refused a statement or the commit and kept the connection (in a pipeline: the
 * implicit transaction rolled back). Not a connection's failure, nor a session the server ended
 * (SQLSTATE 57P…: shut down, terminated; 08…: the connection), which may come after the
 * commit. Severity is not read: PostgreSQL translates it.
 */
export function keepsConnection(error: unknown): boolean {
  if (!(error instanceof pg.DatabaseError)) return false
  const code = error.code ?? ''
  return code !== '' && !code.startsWith('57P') && !code.startsWith('08')
}

/** Statements around a pipeline's members: an explicit transaction's ends. */
export interface Around {
  /** A BEGIN ahead of the members: they are the first statements of a transaction. */
  opensTransaction?: boolean
  /** A COMMIT after them, before the Sync: they are the last statements of a transaction. */
  closesTransaction?: boolean
}

export class PipelinedRuns {
  /**
   * Resolves once every member answered (and the transaction committed, when the Sync or the
   * COMMIT ends it): each member's own result, in the order given.
   */
  readonly promise: Promise<Promise<RunResult>[]>
  private settle!: {
    resolve(results: Promise<RunResult>[]): void
    reject(error: PipelineFailed): void
  }
  /** The member whose answers come now. */
  private current = 0
  /** BEGIN's CommandComplete, which precedes the members', is still to come. */
  private beginPending: boolean
  /** The COMMIT's CommandComplete came. */
  private committed = false

  constructor(
    private readonly runs: PreparedRun[],
    private readonly around: Around = {},
  ) {
    this.beginPending = around.opensTransaction === true
    this.promise = new Promise((resolve, reject) => {
      this.settle = { resolve, reject }
    })
  }

  /** Writes every member's messages and the Sync; nothing is sent when a value fails. */
  submit(connection: WireConnection): Error | null {
    let values: unknown[][]
    try {
      values = this.runs.map((run) => run.wireValues())
    } catch (error) {
      return new PipelineFailed(error, true)
    }
    connection.stream.cork?.()
    try {
      if (this.around.opensTransaction) writeUnnamed(connection, 'BEGIN')
      this.runs.forEach((run, i) => {
        run.writeInPipeline(connection, values[i]!)
      })
      if (this.around.closesTransaction) writeUnnamed(connection, 'COMMIT')
      connection.sync()
    } finally {
      connection.stream.uncork?.()
    }
    return null
  }

  handleRowDescription(message: Parameters<PreparedRun['handleRowDescription']>[0]) {
    this.runs[this.current]?.handleRowDescription(message)
  }

  handleDataRow(message: Parameters<PreparedRun['handleDataRow']>[0]) {
    this.runs[this.current]?.handleDataRow(message)
  }

  handleCommandComplete(message: { text: string }) {
    if (this.beginPending) {
      this.beginPending = false
      return
    }
    const run = this.runs[this.current]
    if (!run) {
      this.committed = message.text === 'COMMIT'
      return
    }
    run.handleCommandComplete(message)
    this.current++
  }

  handleReadyForQuery() {
    const unanswered = this.around.closesTransaction && !this.committed
    if (this.current < this.runs.length || unanswered) {
      this.settle.reject(new PipelineFailed(new Error('a pipeline ended unanswered'), false))
      return
    }
    for (const run of this.runs) run.handleReadyForQuery()
    this.settle.resolve(this.runs.map((run) => run.promise))
  }

  /** The server's error (pg's client then drops this submittable), or the connection's. */
  handleError(error: unknown) {
    if (error instanceof PipelineFailed) {
      this.settle.reject(error)
      return
    }
    this.settle.reject(new PipelineFailed(error, keepsConnection(error)))
  }

  handleEmptyQuery() {}
  handlePortalSuspended() {}
  handleCopyInResponse(connection: WireConnection) {
    connection.sendCopyFail('COPY is not supported in a pipeline')
  }
  handleCopyData() {}
}
