// Pages are Preact components rendered once to a string on the server: every text and attribute
// is escaped by the renderer, so a page has no way to inject markup it did not build.
import type { ComponentChildren, VNode } from 'preact'
import { renderToString } from 'preact-render-to-string'

/** The full HTML document for a page component. */
export function render(page: VNode): string {
  return `<!doctype html>${renderToString(page)}`
}

/**
 * Data for a page's script, as `<script type="application/json">`. The one place a page writes
 * unescaped text: JSON whose `<`, `>`, `&` and line separators are \u-escaped, so it can neither
 * close the tag nor be read as anything but JSON.
 */
export function JsonScript(props: { id: string; value: unknown }): VNode {
  const json = JSON.stringify(props.value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
  // Raw on purpose: the JSON is escaped above for a script element.
  return <script type="application/json" id={props.id} dangerouslySetInnerHTML={{ __html: json }} />
}

export type Children = ComponentChildren

/**
 * A page's stylesheet. The renderer would entity-escape its quotes, which a <style> element
 * does not decode; the CSS comes from our own constants, and may never close the tag.
 */
export function StyleSheet(props: { css: string }): VNode {
  if (/<\/style/i.test(props.css)) throw new Error('CSS may not contain </style')
  // Raw on purpose: constant CSS, checked above.
  return <style dangerouslySetInnerHTML={{ __html: props.css }} />
}
