// timestamptz as PostgreSQL writes it (DateStyle ISO), read without a regular expression: pg's
// parser (postgres-date) ran three regular expressions a value and was ~8 % of an orders page's
// CPU. Only the plain shape is read here — `YYYY-MM-DD HH:MM:SS[.f…]±HH[:MM]`, a year of four
// digits — and anything else (BC, infinity, a zone with seconds) goes to pg's own parser.

const ZERO = 48

/**
 * The digits of `text` from `at` to `at + count` as a number, or -1 where one is not a digit
 * (or the text ends: charCodeAt's NaN).
 */
function digits(text: string, at: number, count: number): number {
  let value = 0
  for (let i = at; i < at + count; i++) {
    const d = text.charCodeAt(i) - ZERO
    if (!(d >= 0 && d <= 9)) return -1
    value = value * 10 + d
  }
  return value
}

/** A timestamptz's text as a Date, as `fallback` reads it when its shape is not the plain one. */
export function timestamptzParser(fallback: (text: string) => unknown) {
  return (text: string): unknown => {
    const year = digits(text, 0, 4)
    const month = digits(text, 5, 2)
    const day = digits(text, 8, 2)
    const hour = digits(text, 11, 2)
    const minute = digits(text, 14, 2)
    const second = digits(text, 17, 2)
    if (
      year < 1000 ||
      month < 0 ||
      day < 0 ||
      hour < 0 ||
      minute < 0 ||
      second < 0 ||
      text[4] !== '-' ||
      text[7] !== '-' ||
      text[10] !== ' ' ||
      text[13] !== ':' ||
      text[16] !== ':'
    )
      return fallback(text)
    let at = 19
    // The fraction's first three digits: microseconds truncated to milliseconds, as pg's are.
    let ms = 0
    if (text[at] === '.') {
      let scale = 100
      for (at++; at < text.length; at++) {
        const d = text.charCodeAt(at) - ZERO
        if (!(d >= 0 && d <= 9)) break
        ms += d * scale
        scale = Math.floor(scale / 10)
      }
    }
    const sign = text[at] === '+' ? 1 : text[at] === '-' ? -1 : 0
    const offsetHours = digits(text, at + 1, 2)
    let offsetMinutes = 0
    let end = at + 3
    if (text[end] === ':') {
      offsetMinutes = digits(text, end + 1, 2)
      end += 3
    }
    if (sign === 0 || offsetHours < 0 || offsetMinutes < 0 || end !== text.length)
      return fallback(text)
    const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms)
    return new Date(utc - sign * (offsetHours * 60 + offsetMinutes) * 60_000)
  }
}
