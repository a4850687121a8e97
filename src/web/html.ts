// Tiny server-side HTML helpers: escaping and the shared page frame (pt-BR, mobile-first).

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

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
color:#1d1d1f;background:#f6f6f8}main{max-width:720px;margin:0 auto;padding:16px}
h1{font-size:1.4rem;margin:.5rem 0 1rem}a{color:#5b2bd6}
:focus-visible{outline:3px solid #5b2bd6;outline-offset:2px}
.card{background:#fff;border-radius:12px;padding:16px;margin:0 0 12px;box-shadow:0 1px 3px #0001}
.muted{color:#666;font-size:.9rem}.btn{display:inline-block;background:#5b2bd6;color:#fff;
padding:10px 16px;border-radius:8px;text-decoration:none}`

/** Marks trusted markup (already escaped or built here) for interpolation. */
export const raw = (markup: string): Safe => new Safe(markup)

export function page(title: string, body: Safe, extraCss = ''): string {
  return `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · Vitrine</title><style>${STYLE}${extraCss}</style></head>
<body><main>${body.html}</main></body></html>`
}
