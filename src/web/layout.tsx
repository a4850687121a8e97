// The shared page frame (pt-BR, mobile-first): every page is <Layout> around its content.
import type { VNode } from 'preact'
import { type Children, StyleSheet } from './render.tsx'

/** The frame's styles (also the dev mailbox's, web/html.ts). */
export const PAGE_CSS = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
color:#1d1d1f;background:#f6f6f8}main{max-width:720px;margin:0 auto;padding:16px}
h1{font-size:1.4rem;margin:.5rem 0 1rem}a{color:#5b2bd6}
:focus-visible{outline:3px solid #5b2bd6;outline-offset:2px}
.card{background:#fff;border-radius:12px;padding:16px;margin:0 0 12px;box-shadow:0 1px 3px #0001}
.muted{color:#666;font-size:.9rem}.btn{display:inline-block;background:#5b2bd6;color:#fff;
padding:10px 16px;border-radius:8px;text-decoration:none}`

export function Layout(props: { title: string; css?: string; children: Children }): VNode {
  return (
    <html lang="pt-BR">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>{`${props.title} · Vitrine`}</title>
        <StyleSheet css={PAGE_CSS + (props.css ?? '')} />
      </head>
      <body>
        <main>{props.children}</main>
      </body>
    </html>
  )
}
