// One run of a named prepared statement, handed to a pg client as a "submittable" (the
// interface pg-cursor and pg-query-stream use): the messages go out as pg's own query would
// send them, except that the result's description (column names and types) is asked for only
// on a statement's first run on a connection. A statement prepared on a connection keeps its
// columns there (PostgreSQL refuses to run it rather than return others), so every later run
// skips the Describe message, PostgreSQL's RowDescription answer and pg's per-run work on it
// (field objects, parser lookups, a row template: 3 % of the service's CPU in a launch
// profile, all from the same few dozen statements). That first Describe asks for the statement,
// not the portal: the answer also gives the parameters' types, and from then on the parameters
// whose types have a simple binary layout go in binary (kit/pg-binary.ts).
import { createRequire } from 'node:module'
import { parameterEncoders } from './pg-binary.ts'

/** pg's own conversion of a parameter to its wire text (dates, arrays, buffers, JSON). */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as {
  prepareValue(value: unknown): unknown
}

/**
 * The start of a statement that ends its transaction (writeParts' `endsTransaction`): its COMMIT
 * goes with it, in one round trip (PreparedRun's `closesTransaction`), and withTx's COMMIT is
 * answered at once (kit/db.ts); a transaction of that one statement sends no BEGIN or COMMIT; a
 * shared transaction commits with the round whose every statement is so marked
 * (kit/pg-shared-tx.ts). Nothing may run in the transaction after it (refused), and nothing
 * after it may fail: a failure then finds the transaction committed, as a COMMIT whose answer
 * was lost would. PGlite runs it as any other.
 */
export const ENDS_TRANSACTION = '/* ends its transaction */ '

type Parser = (text: string) => unknown
export type TypeParserOf = (oid: number) => Parser

/** The columns a statement returns: their names and the parsers of their types. */
interface Shape {
  names: string[]
  parsers: Parser[]
}

/** What pg's client exposes to a submittable (its Connection), as far as a run uses it. */
export interface WireConnection {
  stream: { cork?(): void; uncork?(): void }
  once(event: 'parameterDescription', listener: (message: { dataTypeIDs: number[] }) => void): void
  off(event: 'parameterDescription', listener: (message: { dataTypeIDs: number[] }) => void): void
  parsedStatements: Record<string, string>
  submittedNamedStatements: Record<string, string>
  parse(config: { text: string; name: string; types: number[] }): void
  bind(config: { statement: string; values: unknown[] }): void
  describe(config: { type: 'S'; name: string }): void
  execute(config: Record<string, never>): void
  sync(): void
  sendCopyFail(message: string): void
}

interface Field {
  name: string
  dataTypeID: number
}

export interface RunResult {
  command: string | null
  rowCount: number | null
  rows: Record<string, unknown>[]
}

type Encoders = ReturnType<typeof parameterEncoders>
/**
 * Each statement's parameter encoders by name, once PostgreSQL described its parameters on
 * some connection: a text's parameters get the same types on every connection of a database.
 */
const encodersOf = new Map<string, Encoders>()

/** Each connection's shapes by statement name (a name stands for one text: kit/db.ts). */
const shapesOf = new WeakMap<WireConnection, Map<string, Shape>>()
const NO_COLUMNS: Shape = { names: [], parsers: [] }
// pg's Result reads a command tag the same way: "INSERT 0 5", "UPDATE 3", "SELECT 2".
const COMMAND_TAG = /^([A-Za-z]+)(?: (\d+))?(?: (\d+))?/

export class PreparedRun {
  readonly promise: Promise<RunResult>
  private settle!: { resolve(result: RunResult): void; reject(error: unknown): void }
  private shapes!: Map<string, Shape>
  private shape: Shape | undefined
  private failure: unknown = null
  /** BEGIN's CommandComplete, which precedes the statement's own, is still to come. */
  private beginPending = false
  /** The statement's own CommandComplete came: any later one is its COMMIT's. */
  private completed = false
  private readonly result: RunResult = { command: null, rowCount: null, rows: [] }
  /** Listening for this statement's parameter types (its first description anywhere). */
  private unlisten: (() => void) | null = null

  constructor(
    /** Read by pg's client for its prepared-statement bookkeeping. */
    readonly name: string,
    readonly text: string,
    private readonly values: unknown[],
    private readonly parserOf: TypeParserOf,
    /**
     * Sends the transaction's deferred BEGIN ahead of the statement, in the same round trip
     * (kit/db.ts). Only for a statement already parsed on the connection: pg's client records
     * any ParseComplete as the running statement's, and BEGIN's comes first.
     */
    private readonly opensTransaction = false,
    /**
     * Sends the transaction's COMMIT after the statement, before the Sync that ends the run: one
     * round trip for both. An error in the statement skips the COMMIT (the transaction stays
     * open, failed, for the caller's ROLLBACK); an error in the COMMIT rejects the run.
     */
    private readonly closesTransaction = false,
  ) {
    this.promise = new Promise((resolve, reject) => {
      this.settle = { resolve, reject }
    })
  }

  /**
   * True when a statement can run in a pipeline on this connection (kit/pg-pipeline.ts): parsed
   * there, its columns known there and its parameters' types known, so that its run is a Bind
   * and an Execute whose every answer belongs to it.
   */
  static readyOn(connection: WireConnection, name: string): boolean {
    return (
      connection.parsedStatements[name] !== undefined &&
      shapesOf.get(connection)?.has(name) === true &&
      encodersOf.has(name)
    )
  }

  /** The parameters as they go on the wire; throws a value's conversion error. */
  wireValues(): unknown[] {
    const encoders = encodersOf.get(this.name)
    return encoders
      ? this.values.map((value, i) => encoders[i]?.(value) ?? prepareValue(value))
      : this.values.map(prepareValue)
  }

  /** Reads the connection's known columns of the statement (none yet: it will be described). */
  private attach(connection: WireConnection) {
    let shapes = shapesOf.get(connection)
    if (!shapes) {
      shapes = new Map()
      shapesOf.set(connection, shapes)
    }
    this.shapes = shapes
    this.shape = shapes.get(this.name)
  }

  /**
   * Writes a pipeline member's Bind and Execute (no Sync: the pipeline's) with `values` from
   * wireValues; only for a statement `readyOn` the connection.
   */
  writeInPipeline(connection: WireConnection, values: unknown[]) {
    this.attach(connection)
    connection.bind({ statement: this.name, values })
    connection.execute({})
  }

  /** Writes the run's messages; an error returned here is reported through handleError. */
  submit(connection: WireConnection): Error | null {
    let values: unknown[]
    try {
      values = this.wireValues()
    } catch (error) {
      return error as Error
    }
    this.attach(connection)
    const describe = !this.shape
    if (describe && !encodersOf.has(this.name)) this.listenForTypes(connection)
    connection.stream.cork?.()
    try {
      if (this.opensTransaction) {
        // No Sync in between: an error in either skips the rest, and the BEGIN holds on.
        writeUnnamed(connection, 'BEGIN')
        this.beginPending = true
      }
      if (
        connection.parsedStatements[this.name] === undefined &&
        connection.submittedNamedStatements[this.name] === undefined
      ) {
        connection.parse({ text: this.text, name: this.name, types: [] })
        connection.submittedNamedStatements[this.name] = this.text
      }
      connection.bind({ statement: this.name, values })
      if (describe) connection.describe({ type: 'S', name: this.name })
      connection.execute({})
      if (this.closesTransaction) {
        writeUnnamed(connection, 'COMMIT')
      }
      connection.sync()
    } finally {
      connection.stream.uncork?.()
    }
    return null
  }

  /** pg's client does not pass ParameterDescription on; the connection emits it. */
  private listenForTypes(connection: WireConnection) {
    const listener = ({ dataTypeIDs }: { dataTypeIDs: number[] }) => {
      this.unlisten = null
      encodersOf.set(this.name, parameterEncoders(dataTypeIDs))
    }
    connection.once('parameterDescription', listener)
    this.unlisten = () => connection.off('parameterDescription', listener)
  }

  handleRowDescription(message: { fields: Field[] }) {
    this.shape = {
      names: message.fields.map((f) => f.name),
      parsers: message.fields.map((f) => this.parserOf(f.dataTypeID)),
    }
    this.shapes.set(this.name, this.shape)
  }

  handleDataRow(message: { fields: (string | null)[] }) {
    if (this.failure) return
    const { names, parsers } = this.shape ?? NO_COLUMNS
    const fields = message.fields
    const row: Record<string, unknown> = {}
    try {
      // Never a value under another column's name, should the shape be wrong.
      if (fields.length !== names.length) {
        throw new Error(`${this.name}: a row of ${fields.length} columns, ${names.length} known`)
      }
      for (let i = 0; i < fields.length; i++) {
        const text = fields[i]!
        row[names[i]!] = text === null ? null : parsers[i]!(text)
      }
    } catch (error) {
      this.failure = error
      return
    }
    this.result.rows.push(row)
  }

  handleCommandComplete(message: { text: string }) {
    if (this.beginPending) {
      this.beginPending = false
      return
    }
    if (this.completed) return // the COMMIT sent with the statement
    this.completed = true
    // Described but no RowDescription came (PostgreSQL answered NoData): it returns no rows.
    if (!this.shape) this.shapes.set(this.name, NO_COLUMNS)
    const tag = COMMAND_TAG.exec(message.text)
    if (!tag) return
    this.result.command = tag[1]!
    const count = tag[3] ?? tag[2]
    if (count !== undefined) this.result.rowCount = Number.parseInt(count, 10)
  }

  handleReadyForQuery() {
    this.unlisten?.()
    if (this.failure) this.settle.reject(this.failure)
    else this.settle.resolve(this.result)
  }

  /** The server's error (the client then drops this run), or a connection's. */
  handleError(error: unknown) {
    this.unlisten?.()
    this.settle.reject(this.failure ?? error)
  }

  handleEmptyQuery() {}
  handlePortalSuspended() {}
  handleCopyInResponse(connection: WireConnection) {
    connection.sendCopyFail('COPY is not supported by a prepared run')
  }
  handleCopyData() {}
}

/** A statement without parameters (BEGIN, COMMIT), unnamed; the Sync is the caller's. */
export function writeUnnamed(connection: WireConnection, text: string) {
  connection.parse({ text, name: '', types: [] })
  connection.bind({ statement: '', values: [] })
  connection.execute({})
}
