// A tiny element builder for the lists the admin script draws: text is always set as text
// (never HTML), so nothing a holder or buyer typed can become markup.
type Attrs = Record<string, string | boolean | undefined>
type Child = Node | string | null | undefined | false

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue
    el.setAttribute(name, value === true ? '' : value)
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue
    el.append(child)
  }
  return el
}

/** "R$ 1.234,56" with a plain space, as the server's formatBrl writes it. */
export const brl = (amount: number) =>
  amount.toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' }).replace(/\s/g, ' ')

export const dateTime = (iso: string) =>
  new Date(iso).toLocaleString('pt-BR', { dateStyle: 'short', timeStyle: 'short' })

/** Shows (or hides, with '') a row's error line, beside the action that failed. */
export function showRowError(line: HTMLElement | null, message: string): void {
  if (!line) return
  line.textContent = message
  line.hidden = !message
}
