// Loaded into the benched service process (node --import): counts the SQL statements its pg
// clients send, one per round trip (BEGIN/COMMIT included; kit/db.ts sends a transaction's
// BEGIN with its first statement: one round trip, counted once), and answers the bench's IPC
// questions with them, the process's CPU time, its event loop's busy time, its context switches
// and its RSS. Bench-only; the service itself knows nothing of it.
import pg from 'pg'

let statements = 0
// BENCH_STATEMENT_TEXTS=1: also count each statement text (a diagnosis, not a measurement: the
// map costs CPU of its own).
const texts = process.env.BENCH_STATEMENT_TEXTS === '1' ? new Map() : null
const query = pg.Client.prototype.query
pg.Client.prototype.query = function countedQuery(...args) {
  statements++
  if (texts) {
    const first = args[0]
    const text = typeof first === 'string' ? first : first?.text
    if (typeof text === 'string') texts.set(text, (texts.get(text) ?? 0) + 1)
  }
  return query.apply(this, args)
}

let rssPeak = 0
const sampler = setInterval(() => {
  rssPeak = Math.max(rssPeak, process.memoryUsage.rss())
}, 100)
sampler.unref()

process.on('message', (message) => {
  if (message === 'reset-peak') rssPeak = 0
  if (message !== 'stats') return
  const cpu = process.cpuUsage()
  const rss = process.memoryUsage.rss()
  rssPeak = Math.max(rssPeak, rss)
  const usage = process.resourceUsage()
  const loop = performance.eventLoopUtilization()
  process.send?.({
    statements,
    cpuMicros: cpu.user + cpu.system,
    systemMicros: cpu.system,
    loopActiveMs: loop.active,
    loopIdleMs: loop.idle,
    switches: usage.voluntaryContextSwitches + usage.involuntaryContextSwitches,
    preemptions: usage.involuntaryContextSwitches,
    rss,
    rssPeak,
    texts: texts && Object.fromEntries(texts),
  })
})
// The IPC channel must not keep the service alive on its own.
process.channel?.unref()
