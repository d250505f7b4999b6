// Access control of the browser host, as Jupyter does it: a random token in the printed URL. The
// first visit with ?token= sets an HttpOnly, SameSite=Strict cookie and redirects to a clean URL;
// later requests carry the cookie (the page, its assets, the API, the WebSocket). Programs may send
// `Authorization: Bearer TOKEN` instead. The Host header must name this server (a DNS-rebinding
// page cannot), and a cross-origin Origin is refused.
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

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=')
    if (i > 0 && part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim())
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

/** Check a request: `query-token` means authorised by ?token= (set the cookie, then redirect). */
export function checkRequest(req: IncomingMessage, url: URL, gate: Gate): Verdict {
  if (gate.hosts.length) {
    const host = (req.headers.host ?? '').toLowerCase()
    if (!gate.hosts.some((h) => host === `${h}:${gate.port}`)) return 'forbidden'
  }
  const origin = req.headers.origin
  if (origin && origin !== 'null' && new URL(origin).host !== req.headers.host) return 'forbidden'
  const auth = req.headers.authorization
  if (auth?.startsWith('Bearer ') && sameToken(auth.slice(7), gate.token)) return 'ok'
  if (sameToken(cookie(req, cookieName(gate.port)), gate.token)) return 'ok'
  if (sameToken(url.searchParams.get('token') ?? undefined, gate.token)) return 'query-token'
  return 'unauthorized'
}

export function setCookieHeader(gate: Gate): string {
  return `${cookieName(gate.port)}=${gate.token}; HttpOnly; SameSite=Strict; Path=/`
}

export const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]']
