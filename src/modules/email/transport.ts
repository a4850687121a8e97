import { Readable } from 'node:stream'
import type MailMessage from 'nodemailer/lib/mailer/mail-message'
import SMTPPool from 'nodemailer/lib/smtp-pool'
import type { Config } from '../../config.ts'
import { addressOf, composeMime } from './mime.ts'
import type { Mail } from './service.ts'

export interface MailTransport {
  /** `id`: the outbox row's, the message's Message-ID. */
  send(mail: Mail & { id: string }): Promise<void>
  close(): void
}

/** Real SMTP when SMTP_URL is set; otherwise the dev mailbox, where the row itself is the mail. */
export function createMailTransport(
  config: Pick<Config, 'smtpUrl' | 'smtpConnections' | 'mailFrom'>,
): MailTransport {
  if (!config.smtpUrl) return { send: async () => {}, close: () => {} }
  const pool = new SMTPPool({
    url: config.smtpUrl,
    // SMTP_CONNECTIONS (config.ts); nodemailer's default is 5. At a launch's three mails a
    // sale (two since the owner's notices are coalesced), 10 fell behind even a sink nearby on
    // 2026-11-25 (100 sales/s offered: e-mail p99 4.3 s; 20: 0.5 s), when a mail cost the
    // service more than it does now.
    maxConnections: config.smtpConnections,
    // nodemailer waits up to 2 min to connect and 10 min on a silent socket; a pass must end
    // inside the outbox lease (attempts.ts), or a second worker would send its mails again.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  })
  return {
    async send(mail) {
      // Composed here (mime.ts) and handed straight to nodemailer's SMTP pool (its transport
      // interface): its composer cost ~0.8 ms a mail, and its message layers, even for a raw
      // message, ~5 % of a launch's service CPU (BENCHMARKS.md, 2026-11-26).
      const { raw, messageId } = composeMime({ from: config.mailFrom, ...mail }, new Date())
      const message = composedMessage(
        { from: addressOf(config.mailFrom), to: [addressOf(mail.to)] },
        messageId,
        raw,
      )
      await new Promise<void>((resolve, reject) => {
        pool.send(message, (error) => (error ? reject(error) : resolve()))
      })
    },
    close: () => pool.close(),
  }
}

/**
 * A composed message as a transport reads it (nodemailer's transport interface: `data` and a
 * `message` that gives its envelope, its headers and its bytes, as often as a retry asks).
 */
function composedMessage(
  envelope: { from: string; to: string[] },
  messageId: string,
  raw: string,
): MailMessage<SMTPPool.SentMessageInfo> {
  return {
    data: {},
    message: {
      getEnvelope: () => envelope,
      messageId: () => messageId,
      getHeader: (key: string) => (key.toLowerCase() === 'message-id' ? messageId : undefined),
      createReadStream: () => Readable.from([Buffer.from(raw)]),
    },
  } as unknown as MailMessage<SMTPPool.SentMessageInfo>
}
