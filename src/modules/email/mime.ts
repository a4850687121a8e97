// The one shape of mail the platform sends, composed by hand: multipart/alternative with a
// UTF-8 text part and a UTF-8 HTML part, both base64 (any byte, any line length, no escaping
// rules to get wrong). nodemailer's general composer spent ~0.8 ms of CPU per mail on the same
// message; three mails went out per purchase then (two since the owner's notices are
// coalesced), so on launch day it was the largest single cost in the service. nodemailer still
// speaks SMTP (pool, time-outs, retries).

export interface MimeMail {
  /** The outbox row's id: the Message-ID, the same on every retry of the mail. */
  id: string
  from: string
  to: string
  subject: string
  text: string
  html: string
}

const CRLF = '\r\n'
const ASCII_PRINTABLE = /^[\x20-\x7e]*$/

/** The message, CRLF line ends, ready for SMTP DATA, and its Message-ID. */
export function composeMime(mail: MimeMail, now: Date): { raw: string; messageId: string } {
  // base64 has no `_`: the boundary cannot occur in a part.
  const boundary = `=_vitrine_${mail.id.replace(/-/g, '')}`
  const domain = /@([^>\s]+)>?\s*$/.exec(mail.from)?.[1] ?? 'vitrine.local'
  const messageId = `<${mail.id}@${domain}>`
  const raw = [
    `From: ${mailbox(mail.from)}`,
    `To: ${mailbox(mail.to)}`,
    `Subject: ${encodedWords(mail.subject)}`,
    `Date: ${now.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: ${messageId}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative;${CRLF} boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(mail.text),
    `--${boundary}`,
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(mail.html),
    `--${boundary}--`,
    '',
  ].join(CRLF)
  return { raw, messageId }
}

/** `Name <addr>` with a non-ASCII name encoded (RFC 2047); a bare address as it is. */
export function mailbox(value: string): string {
  // No line break may reach a header: it would start a header of the sender's choosing.
  const flat = value.replace(/[\r\n]+/g, ' ')
  const named = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(flat)
  if (!named) return flat.trim()
  const [, name, address] = named
  if (!name) return `<${address}>`
  const display = ASCII_PRINTABLE.test(name) ? quoted(name) : encodedWords(name)
  return `${display} <${address}>`
}

/** The bare address of `Name <addr>` or of `addr` (the SMTP envelope's). */
export const addressOf = (value: string) => (/<([^>]+)>/.exec(value)?.[1] ?? value).trim()

const quoted = (name: string) =>
  /^[\w !#$%&'*+/=?^`{|}~.-]*$/.test(name) ? name : `"${name.replace(/(["\\])/g, '\\$1')}"`

/**
 * A header text as RFC 2047 encoded words when it is not plain ASCII (or too long for one
 * line of 998): each word 36 bytes of UTF-8 at most (60 characters encoded, under the 75
 * allowed, so `Subject: ` and the first word stay within a 78-character line), cut between
 * characters, folded onto lines.
 */
export function encodedWords(text: string): string {
  if (ASCII_PRINTABLE.test(text) && text.length <= 900) return text
  const words: string[] = []
  let chunk = ''
  for (const char of text) {
    if (Buffer.byteLength(chunk + char) > 36) {
      words.push(chunk)
      chunk = ''
    }
    chunk += char
  }
  if (chunk) words.push(chunk)
  return words
    .map((w) => `=?UTF-8?B?${Buffer.from(w, 'utf8').toString('base64')}?=`)
    .join(`${CRLF} `)
}

/** Base64 in lines of 76 characters (RFC 2045), of the text with CRLF line ends (canonical). */
function base64Lines(body: string): string {
  const encoded = Buffer.from(body.replace(/\r?\n/g, CRLF), 'utf8').toString('base64')
  const lines: string[] = []
  for (let i = 0; i < encoded.length; i += 76) lines.push(encoded.slice(i, i + 76))
  return lines.join(CRLF)
}
