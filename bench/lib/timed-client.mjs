// One client in a process of its own: sequential GETs of one URL, each timed from the request
// to its last byte, printed as a JSON array of milliseconds. The bench process is no place for
// a latency client after a launch: its heap holds the launch's samples, receiver and mail sink,
// and its collector's pauses landed in the orders list's p99 (BENCHMARKS.md, 2026-11-28).
// The first <warm-up> answers are not timed: they hold this process's own start (its first
// connection, its code not yet compiled), not the server's steady answer.
// Usage: node timed-client.mjs <url> <seconds> <at most> [<warm-up>], headers as JSON in
// TIMED_HEADERS.
import http from 'node:http'

const [url, seconds, atMost, warmUp = '0'] = process.argv.slice(2)
const headers = JSON.parse(process.env.TIMED_HEADERS ?? '{}')
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })

/** One GET read to its last byte; anything but a 200 ends the run. */
function get() {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      res.on('data', () => {})
      res.on('end', () =>
        res.statusCode === 200 ? resolve() : reject(new Error(`GET ${url}: ${res.statusCode}`)),
      )
    })
    req.on('error', reject)
  })
}

for (let i = 0; i < Number(warmUp); i++) await get()
const samples = []
const end = performance.now() + Number(seconds) * 1000
while (performance.now() < end && samples.length < Number(atMost)) {
  const started = performance.now()
  await get()
  samples.push(performance.now() - started)
}
agent.destroy()
process.stdout.write(JSON.stringify(samples))
