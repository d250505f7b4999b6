// Access control of the browser host, as Jupyter does it: a random token in the printed URL. The
// first visit with ?token= sets an HttpOnly, SameSite=Strict cookie and redirects to a clean URL;
// later requests carry the cookie (the page, its assets, the API, the WebSocket). Programs may send
// `Authorization: Bearer TOKEN` instead. The Host header must name this server (a DNS-rebinding
// page cannot), and an Origin other than the host's own (scheme, host and port) is refused.
// Every header here is untrusted text: nothing in this file throws on what a client sends.
import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

export const newToken = (): string => randomBytes(24).toString('hex')

export const cookieName = (port: number): string => `iosched-lab-${port}`

export function sameToken(given: string | undefined, token: string): boolean {
  if (!given) return false
  const a = Buffer.from(given)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined // not percent-encoding: no such cookie
  }
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=')
    if (i > 0 && part.slice(0, i).trim() === name) return decoded(part.slice(i + 1).trim())
  }
  return undefined
}

export type Verdict = 'ok' | 'query-token' | 'unauthorized' | 'forbidden'

export interface Gate {
  token: string
  port: number
  /** Host names this server answers to (loopback names; empty = any, when bound elsewhere). */
  hosts: string[]
}

/** The request's URL (path and query), or null when its target is not one. */
export function requestUrl(req: IncomingMessage): URL | null {
  try {
    return new URL(req.url ?? '/', 'http://host')
  } catch {
    return null
  }
}

/** A Host header as this server's origin (`http://name:port`), or null when it is not a host. */
export function ownOrigin(host: string | undefined): string | null {
  if (!host || !/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i.test(host)) return null
  try {
    return new URL(`http://${host}`).origin
  } catch {
    return null
  }
}

/**
 * Whether an Origin header allows the request: absent (programs, and browsers' same-origin GETs),
 * or exactly the origin of the page's own host — http, the host name the Host header gives and
 * its port. `null`, another scheme or port, and text that is not a serialised origin are refused.
 */
export function originAllowed(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true
  const own = ownOrigin(host)
  if (!own) return false
  let given: URL
  try {
    given = new URL(origin)
  } catch {
    return false
  }
  return given.origin === origin && origin === own
}

function tokenVerdict(req: IncomingMessage, url: URL, gate: Gate): 'ok' | 'query-token' | 'unauthorized' {
  const auth = req.headers.authorization
  if (auth?.startsWith('Bearer ') && sameToken(auth.slice(7), gate.token)) return 'ok'
  if (sameToken(cookie(req, cookieName(gate.port)), gate.token)) return 'ok'
  if (sameToken(url.searchParams.get('token') ?? undefined, gate.token)) return 'query-token'
  return 'unauthorized'
}

/**
 * Check a request: `query-token` means authorised by ?token= (set the cookie, then redirect).
 * The Host is checked first (plain text), then the token, and only then the Origin.
 */
export function checkRequest(req: IncomingMessage, url: URL, gate: Gate): Verdict {
  if (gate.hosts.length) {
    const host = (req.headers.host ?? '').toLowerCase()
    if (!gate.hosts.some((h) => host === `${h}:${gate.port}`)) return 'forbidden'
  }
  const verdict = tokenVerdict(req, url, gate)
  if (verdict === 'unauthorized') return verdict
  return originAllowed(req.headers.origin, req.headers.host) ? verdict : 'forbidden'
}

export function setCookieHeader(gate: Gate): string {
  return `${cookieName(gate.port)}=${gate.token}; HttpOnly; SameSite=Strict; Path=/`
}

export const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]']
