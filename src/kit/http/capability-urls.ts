// Some of our URLs are capabilities: whoever holds them may act (a one-time log-in link's
// `token`, a checkout session link's `session`, its `session_token`). Named once here, so the
// logs redact them and pages that carry them send no Referer.

const CAPABILITY_PARAMS = ['token', 'session', 'session_token']

function queryOf(url: string): URLSearchParams | null {
  const q = url.indexOf('?')
  return q < 0 ? null : new URLSearchParams(url.slice(q + 1))
}

export function carriesCapability(url: string): boolean {
  const params = queryOf(url)
  return params !== null && CAPABILITY_PARAMS.some((name) => params.has(name))
}

/** The URL as logged: capability values replaced by REDACTED, whatever their spelling. */
export function redactCapabilities(url: string): string {
  const params = queryOf(url)
  if (!params || !CAPABILITY_PARAMS.some((name) => params.has(name))) return url
  for (const name of CAPABILITY_PARAMS) if (params.has(name)) params.set(name, 'REDACTED')
  return `${url.slice(0, url.indexOf('?'))}?${params}`
}
