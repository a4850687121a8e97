// The dashboard's writes: every form[data-url] and button[data-action] goes to the HTTP API as
// JSON with the session's CSRF token (the same API outside clients call). A confirmation is
// asked first where the page says so; an error shows beside the form that caused it; after
// success the page is rendered again by the server and swapped in place (no reload: the
// status line keeps the message), or another page opens, or a secret is shown once.
import { csrfToken } from '../../browser/session.ts'

interface Answer {
  ok: boolean
  status: number
  body: Record<string, unknown>
}

export async function callApi(url: string, method: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { 'x-csrf-token': csrfToken() }
  const init: RequestInit = { method, headers, credentials: 'same-origin' }
  if (body !== undefined) {
    headers['content-type'] = 'application/json'
    init.body = JSON.stringify(body)
  }
  try {
    const res = await fetch(url, init)
    const parsed = res.status === 204 ? {} : await res.json().catch(() => ({}))
    return { ok: res.ok, status: res.status, body: parsed as Record<string, unknown> }
  } catch {
    return { ok: false, status: 0, body: {} }
  }
}

/** What a field is called on the page: its label, its fieldset's legend, else its API name. */
function fieldName(form: HTMLFormElement | undefined, path: string): string {
  const field = form?.querySelector<HTMLInputElement>(`[name="${CSS.escape(path)}"]`)
  // A group of checkboxes or radios is named by its legend, a lone field by its label.
  const legend = field?.closest('fieldset')?.querySelector('legend')?.textContent
  const grouped = field?.type === 'checkbox' || field?.type === 'radio'
  const label = grouped && legend ? legend : (field?.labels?.[0]?.textContent ?? legend)
  return (label ?? path).trim()
}

/** The API's refusal in words a creator reads (its business messages are already pt-BR). */
export function refusalText(answer: Answer, form?: HTMLFormElement): string {
  if (answer.status === 0) return 'Sem conexão. Confira sua internet e tente de novo.'
  if (answer.status === 401) return 'Sua sessão terminou. Entre de novo.'
  if (answer.status === 429) return 'Muitas tentativas. Aguarde um pouco e tente de novo.'
  const error = typeof answer.body.error === 'string' ? answer.body.error : ''
  if (answer.status === 400 && Array.isArray(answer.body.details)) {
    const fields = (answer.body.details as { path?: unknown }[])
      .map((d) => (typeof d.path === 'string' ? fieldName(form, d.path) : ''))
      .filter(Boolean)
    return fields.length
      ? `Confira: ${[...new Set(fields)].join(', ')}.`
      : 'Confira os campos do formulário.'
  }
  return error || 'Não foi possível concluir a ação. Tente de novo.'
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.')
  let node: Record<string, unknown> = target
  keys.forEach((key, i) => {
    if (i === keys.length - 1) {
      node[key] = value
      return
    }
    const nextIsIndex = /^\d+$/.test(keys[i + 1] ?? '')
    node[key] ??= nextIsIndex ? [] : {}
    node = node[key] as Record<string, unknown>
  })
}

/** Removes the holes an emptied list row leaves (plans.0 and plans.2 of three). */
function compact(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(compact)
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compact(v)]))
  return value
}

/** A form's named fields as the API takes them (see ApiForm in web/dashboard/ui.tsx). */
export function fieldsOf(form: HTMLFormElement): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  const lists = new Map<string, string[]>()
  for (const element of Array.from(form.elements)) {
    const field = element as HTMLInputElement
    if (!field.name || field.disabled) continue
    const type = field.dataset.type ?? field.type
    if (field.type === 'checkbox' && type === 'boolean') {
      setPath(body, field.name, field.checked)
    } else if (field.type === 'checkbox') {
      const list = lists.get(field.name) ?? []
      if (field.checked) list.push(field.value)
      lists.set(field.name, list)
    } else if (field.type === 'radio') {
      if (field.checked) setPath(body, field.name, field.value)
    } else if (field.value.trim() === '') {
      if (field.dataset.empty === 'null') setPath(body, field.name, null)
    } else if (type === 'number') {
      setPath(body, field.name, Number(field.value.replace(',', '.')))
    } else setPath(body, field.name, field.value.trim())
  }
  for (const [name, list] of lists) setPath(body, name, list)
  return compact(body) as Record<string, unknown>
}

/** The status line above the section (#aviso). */
export function announce(text: string): void {
  const line = document.getElementById('aviso')
  if (line) line.textContent = text
}

/** Renders the current page again on the server and swaps its content in place. */
export async function refresh(message?: string): Promise<void> {
  const res = await fetch(location.href, { credentials: 'same-origin' })
  const html = await res.text()
  const next = new DOMParser().parseFromString(html, 'text/html').getElementById('conteudo')
  const current = document.getElementById('conteudo')
  if (next && current) current.replaceWith(next)
  if (message) announce(message)
}

/** `/dashboard/produtos/{id}` with `{id}` taken from the answer's data (or the answer). */
function fill(template: string, body: Record<string, unknown>): string {
  const data = (body.data ?? body) as Record<string, unknown>
  return template.replace(/\{(\w+)\}/g, (_, key: string) =>
    encodeURIComponent(String(data[key] ?? body[key] ?? '')),
  )
}

async function submit(form: HTMLFormElement): Promise<void> {
  const error = form.querySelector<HTMLElement>('.form-error')
  if (error) error.textContent = ''
  announce('')
  const { confirm: question, url = '', method = 'POST', then, done } = form.dataset
  if (question && !window.confirm(question)) return
  const button = form.querySelector<HTMLButtonElement>('button[type=submit], button:not([type])')
  const label = button?.textContent ?? ''
  if (button) {
    button.disabled = true
    button.textContent = 'Enviando…'
  }
  const answer = await callApi(url, method, method === 'DELETE' ? undefined : fieldsOf(form))
  if (button) {
    button.disabled = false
    button.textContent = label
  }
  if (!answer.ok) {
    if (error) error.textContent = refusalText(answer, form)
    else announce(refusalText(answer, form))
    return
  }
  if (then === 'go' && form.dataset.go) return location.assign(fill(form.dataset.go, answer.body))
  if (then === 'reveal') {
    const box = document.getElementById(form.dataset.revealIn ?? '')
    const secret = answer.body[form.dataset.reveal ?? '']
    if (box) {
      const code = box.querySelector('code')
      if (code) code.textContent = String(secret ?? '')
      box.hidden = false
    }
    form.reset()
    if (done) announce(done)
    return
  }
  await refresh(done ?? 'Salvo.')
}

async function act(button: HTMLButtonElement): Promise<void> {
  announce('')
  const { confirm: question, action = '', method = 'POST', done } = button.dataset
  if (question && !window.confirm(question)) return
  button.disabled = true
  const answer = await callApi(action, method)
  button.disabled = false
  if (!answer.ok) return announce(refusalText(answer))
  await refresh(done ?? 'Feito.')
}

export function wireForms(): void {
  document.addEventListener('submit', (event) => {
    const form = (event.target as Element).closest<HTMLFormElement>('form[data-url]')
    if (!form) return
    event.preventDefault()
    void submit(form)
  })
  document.addEventListener('click', (event) => {
    const target = event.target as Element
    const button = target.closest<HTMLButtonElement>('button[data-action]')
    if (button) void act(button)
    const copy = target.closest<HTMLButtonElement>('button[data-copy]')
    if (copy)
      void navigator.clipboard
        .writeText(copy.dataset.copy ?? '')
        .then(() => announce('Copiado.'))
        .catch(() => announce('Não foi possível copiar: selecione o texto e copie.'))
  })
}
