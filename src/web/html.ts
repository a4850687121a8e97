// Tiny server-side HTML helpers for e-mails and the dev mailbox (modules/email): escaping and a
// page frame. Pages are TSX components (render.tsx, layout.tsx).
import { PAGE_CSS } from './layout.tsx'

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!)
}

/** A tagged template that escapes every interpolated value unless it is already `Safe`. */
export class Safe {
  constructor(readonly html: string) {}
  toString() {
    return this.html
  }
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Safe {
  let out = strings[0] ?? ''
  values.forEach((value, i) => {
    const items = Array.isArray(value) ? value : [value]
    for (const item of items) {
      if (item === null || item === undefined || item === false) continue
      out += item instanceof Safe ? item.html : escapeHtml(String(item))
    }
    out += strings[i + 1] ?? ''
  })
  return new Safe(out)
}

export function page(title: string, body: Safe, extraCss = ''): string {
  return `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · Vitrine</title><style>${PAGE_CSS}${extraCss}</style></head>
<body><main>${body.html}</main></body></html>`
}
