// Where a log-in may send the person afterwards: only our own logged-in pages, never another
// site (`//evil.example`, `https://…`, `/\evil`), so /entrar?next=… is no open redirect.
const ALLOWED = ['/dashboard', '/members', '/admin']

export const DEFAULT_NEXT = '/dashboard'

export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith('/') || /^\/[/\\]/.test(next))
    return DEFAULT_NEXT
  let url: URL
  try {
    url = new URL(next, 'http://vitrine.invalid')
  } catch {
    return DEFAULT_NEXT
  }
  if (url.origin !== 'http://vitrine.invalid') return DEFAULT_NEXT
  const allowed = ALLOWED.some((p) => url.pathname === p || url.pathname.startsWith(`${p}/`))
  return allowed ? `${url.pathname}${url.search}` : DEFAULT_NEXT
}
