// Work this process may start only once a transaction's writes are committed: outbox rows born
// leased to its own workers (kit/handoff.ts) are handed over then. A hook is kept on its
// transaction, run once the COMMIT has answered, and dropped with a rollback — in the writing
// process itself, with nothing sent through the database (a NOTIFY made each such commit wait
// for PostgreSQL's one notification-queue lock; issue 13, BENCHMARKS.md).
import type { Executor, Tx } from './db.ts'

const hooks = new WeakMap<Tx, (() => void)[]>()

/**
 * Runs `hook` once `db`'s writes are committed: at once when `db` is the pool (its statement
 * committed on its own), after the COMMIT when it is a transaction of `withTx`'s; never when
 * that rolls back, nor when its COMMIT's answer is lost. A hook must not throw: it runs after
 * the change is done, and a failure there must not make the caller report it undone.
 */
export function afterCommit(db: Executor, hook: () => void): void {
  if (!db.isTransaction) {
    hook()
    return
  }
  const list = hooks.get(db as Tx)
  if (!list) throw new Error('afterCommit: a transaction not opened by withTx')
  list.push(hook)
}

/** Opens `tx` to hooks (withTx); the returned function runs them once its COMMIT answered. */
export function collectHooks(tx: Tx): () => void {
  const list: (() => void)[] = []
  hooks.set(tx, list)
  return () => {
    for (const hook of list) hook()
  }
}
