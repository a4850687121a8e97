// The page a browser gets when the service is too busy to serve it (kit/http/load-shedding.ts).
import { html, page } from './html.ts'

export const OVERLOADED_PAGE = page(
  'Muita gente comprando agora',
  html`<h1>Muita gente comprando agora</h1>
<p>Estamos atendendo muitas pessoas ao mesmo tempo. Esta página tenta de novo sozinha em alguns segundos.</p>`,
)
