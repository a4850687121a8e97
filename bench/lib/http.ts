// A keep-alive JSON client over node:http (lower overhead than global fetch under load).
import http from 'node:http'

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 })

export async function request(
  baseUrl: string,
  method: string,
  path: string,
  opts: {
    body?: unknown
    headers?: Record<string, string>
    localAddress?: string
    /** Another agent than the shared one (its 64 sockets), e.g. many buyers at once. */
    agent?: http.Agent
  } = {},
): Promise<{ status: number; body: any; headers: http.IncomingHttpHeaders }> {
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body)
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}${path}`, {
      method,
      agent: opts.agent ?? agent,
      ...(opts.localAddress && { localAddress: opts.localAddress }),
      headers: {
        ...opts.headers,
        ...(payload
          ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
          : {}),
      },
    })
    req.on('error', reject)
    req.on('response', (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => {
        text += chunk
      })
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: text ? JSON.parse(text) : null,
          headers: res.headers,
        }),
      )
    })
    req.end(payload)
  })
}

export function closeClient(): void {
  agent.destroy()
}
