// The admin API as the page calls it: the session cookie, the CSRF header on writes.
import { csrfToken } from '../../browser/session.ts'

export interface ApiAnswer<T> {
  ok: boolean
  status: number
  body: T & { error?: string }
}

export async function api<T>(method: 'GET' | 'POST', url: string, body?: unknown) {
  const headers: Record<string, string> = {}
  if (method === 'POST') headers['x-csrf-token'] = csrfToken()
  if (body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const answer = (await res.json().catch(() => ({}))) as T & { error?: string }
  return { ok: res.ok, status: res.status, body: answer } as ApiAnswer<T>
}

/** The API's message, in the admin's words where it is a protocol one. */
export function errorText(answer: { status: number; body: { error?: string } }): string {
  if (answer.status === 401) return 'Sua sessão terminou. Entre de novo.'
  if (answer.body.error === 'Validation failed') return 'Confira o que foi digitado.'
  return answer.body.error || 'Não foi possível concluir a ação. Tente de novo.'
}
