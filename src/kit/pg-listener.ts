// Every LISTEN of a process on one PostgreSQL connection. A commit that notifies signals every
// listening backend of its database, whatever the channel: each backend wakes, reads the
// notification queue and goes back to sleep. The workers' three channels on three connections
// cost three wake-ups a notifying commit (~5 % of PostgreSQL's CPU in the launch bench, two
// such commits a purchase); on one connection, one.
import pg from 'pg'
import type { Listener } from './db.ts'

interface Subscriber {
  onNotify(payload: string): void
  onLost?: (() => void) | undefined
}

/** A channel's subscribers, and its LISTEN (a subscriber is told nothing before it is done). */
interface Channel {
  subscribers: Set<Subscriber>
  listening: Promise<unknown>
}

/** The listening connection's statements, one at a time, and its end. */
interface Connection {
  run(text: string): Promise<unknown>
  end(): Promise<void>
}

export type Listen = (
  channel: string,
  onNotify: (payload: string) => void,
  onLost?: () => void,
) => Promise<Listener>

/**
 * `listen` for a database: the first call opens the connection, the last close ends it. A lost
 * connection tells every subscriber (`onLost`) and delivers nothing more to them; a later call
 * opens a new one.
 */
export function sharedListener(connectionString: string): Listen {
  /** The open connection and its channels; null until the first call and once lost or closed. */
  let current: { connection: Promise<Connection>; channels: Map<string, Channel> } | null = null

  const open = () => {
    const client = new pg.Client({ connectionString })
    const channels = new Map<string, Channel>()
    // One statement at a time: pg queues the others, but warns that it will stop doing so.
    let last: Promise<unknown> = client.connect()
    const run = (text: string) => {
      const next = last.then(() => client.query(text))
      last = next.catch(() => {})
      return next
    }
    const opened = {
      connection: last.then((): Connection => ({ run, end: () => client.end() })),
      channels,
    }
    let lost = false
    const loseAll = () => {
      if (lost) return
      lost = true
      if (current === opened) current = null
      for (const { subscribers } of channels.values()) for (const s of subscribers) s.onLost?.()
    }
    client.on('error', loseAll) // a dropped listener only loses its notifications
    client.on('end', loseAll)
    client.on('notification', ({ channel, payload }) => {
      for (const s of channels.get(channel)?.subscribers ?? []) s.onNotify(payload ?? '')
    })
    opened.connection.catch(loseAll)
    return opened
  }

  return async (name, onNotify, onLost) => {
    current ??= open()
    const { channels } = current
    const connection = await current.connection
    let channel = channels.get(name)
    if (!channel) {
      const listening = connection.run(`LISTEN ${pg.escapeIdentifier(name)}`).catch((error) => {
        if (channels.get(name) === channel) channels.delete(name)
        throw error
      })
      channel = { subscribers: new Set(), listening }
      channels.set(name, channel)
    }
    await channel.listening
    const subscriber: Subscriber = { onNotify, onLost }
    channel.subscribers.add(subscriber)
    const { subscribers } = channel
    return {
      sync: async () => {
        await connection.run('SELECT 1')
      },
      async close() {
        subscribers.delete(subscriber)
        if (subscribers.size || channels.get(name)?.subscribers !== subscribers) return
        channels.delete(name)
        if (channels.size) {
          await connection.run(`UNLISTEN ${pg.escapeIdentifier(name)}`).catch(() => {})
          return
        }
        // The last channel: the connection ends, and nobody is told it was lost.
        if (current?.channels === channels) current = null
        await connection.end()
      },
    }
  }
}
