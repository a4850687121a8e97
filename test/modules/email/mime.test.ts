// The hand-composed mail (email/mime.ts) read back the way a mail client reads it: headers
// unfolded and their encoded words decoded, each part found by its boundary and base64-decoded.
import { describe, expect, it } from 'vitest'
import { composeMime, encodedWords } from '../../../src/modules/email/mime.ts'

function decodeWords(value: string): string {
  return value
    .replace(/\?=\r\n =\?/g, '?==?')
    .replace(/=\?UTF-8\?B\?([A-Za-z0-9+/=]*)\?=/g, (_, b64: string) =>
      Buffer.from(b64, 'base64').toString('utf8'),
    )
}

function read(raw: string) {
  const [head, body] = [raw.slice(0, raw.indexOf('\r\n\r\n')), raw.slice(raw.indexOf('\r\n\r\n'))]
  const headers = new Map<string, string>()
  // A line that starts with a space continues the header before it (folding).
  for (const header of head.split(/\r\n(?! )/)) {
    const colon = header.indexOf(':')
    headers.set(header.slice(0, colon).toLowerCase(), header.slice(colon + 2))
  }
  const boundary = /boundary="([^"]+)"/.exec(headers.get('content-type') ?? '')![1]!
  const parts = body
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const [partHead, partBody] = part.trim().split('\r\n\r\n')
      return {
        type: /Content-Type: ([^;]+)/.exec(partHead!)![1],
        text: Buffer.from(partBody!.replace(/\r\n/g, ''), 'base64').toString('utf8'),
      }
    })
  return { headers, parts, last: body.trimEnd().endsWith(`--${boundary}--`) }
}

const mail = {
  id: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  from: 'Vitrine Cursos <nao-responda@vitrine.com.br>',
  to: 'bia@example.com',
  subject: 'Seu acesso à área de membros: Fotografia — turma de verão',
  text: 'Olá, Bia!\nSeu acesso está liberado.',
  html: '<p>Olá, Bia!</p>',
}

describe('composeMime', () => {
  it('reads back as the mail it was given, in UTF-8, as multipart/alternative', () => {
    const { raw, messageId } = composeMime(mail, new Date(Date.UTC(2026, 10, 25, 12)))
    const { headers, parts, last } = read(raw)
    expect(headers.get('from')).toBe(mail.from)
    expect(headers.get('to')).toBe('bia@example.com')
    expect(decodeWords(headers.get('subject')!)).toBe(mail.subject)
    expect(headers.get('date')).toBe('Wed, 25 Nov 2026 12:00:00 +0000')
    expect(headers.get('message-id')).toBe(`<${mail.id}@vitrine.com.br>`)
    expect(messageId).toBe(headers.get('message-id'))
    expect(headers.get('content-type')).toMatch(/^multipart\/alternative;\r\n boundary=/)
    expect(parts).toEqual([
      { type: 'text/plain', text: 'Olá, Bia!\r\nSeu acesso está liberado.' },
      { type: 'text/html', text: '<p>Olá, Bia!</p>' },
    ])
    expect(last).toBe(true)
    for (const line of raw.split('\r\n')) expect(line.length).toBeLessThanOrEqual(78)
  })

  it('cuts a long non-ASCII subject into encoded words within the line limit', () => {
    const subject = `Pagamento confirmado: ${'Ação '.repeat(40)}`.trim()
    const encoded = encodedWords(subject)
    const words = encoded.split('\r\n ')
    expect(words.length).toBeGreaterThan(3)
    for (const word of words) expect(word.length).toBeLessThanOrEqual(69)
    expect(decodeWords(encoded)).toBe(subject)
    expect(encodedWords('Pagamento confirmado: Fotografia')).toBe(
      'Pagamento confirmado: Fotografia',
    )
  })

  it('lets no line break in an address or subject start a header', () => {
    const { raw } = composeMime(
      { ...mail, to: 'bia@example.com\r\nBcc: all@example.com', subject: 'Oi\r\nBcc: x@y.z' },
      new Date(),
    )
    expect(raw).not.toMatch(/^Bcc:/m)
    expect(read(raw).headers.get('to')).toBe('bia@example.com Bcc: all@example.com')
  })
})
