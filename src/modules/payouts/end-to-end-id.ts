// The end-to-end id of a PIX (Banco Central, "Manual de Padrões para Iniciação do Pix"):
// `E` + the paying institution's 8-digit ISPB + the date and time it was made (yyyyMMddHHmm,
// UTC) + 11 alphanumerics of the institution's own sequence: 32 characters in all.
const SHAPE = /^E(\d{8})(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})([A-Za-z0-9]{11})$/

/** The id as typed, trimmed, when it has the shape and a real date and time; else null. */
export function parseEndToEndId(text: string): string | null {
  const id = text.trim()
  const m = SHAPE.exec(id)
  if (!m) return null
  const [year, month, day, hour, minute] = m.slice(2, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ]
  const at = new Date(Date.UTC(year, month - 1, day, hour, minute))
  const real =
    at.getUTCFullYear() === year &&
    at.getUTCMonth() === month - 1 &&
    at.getUTCDate() === day &&
    at.getUTCHours() === hour &&
    at.getUTCMinutes() === minute
  // PIX began in 2020: an earlier date is a typo.
  return real && year >= 2020 ? id : null
}
