// The desktop app's own scheme: the built renderer is served as app://lab/… rather than loaded
// from file://, so the page has a real origin of its own (not every file on the disk), and each
// request is resolved here, inside the renderer folder, with the CSP as a header. The scheme is
// registered as privileged (standard, secure) before the app is ready (app-protocol.ts); this file
// has no Electron import, so the handler is tested with plain Requests.
import { readFile } from 'node:fs/promises'
import { rendererFile } from './renderer-files'
import { CONTENT_SECURITY_POLICY } from './security'

export const APP_SCHEME = 'app'
export const APP_HOST = 'lab'
/** What the window loads in a built app. */
export const APP_INDEX_URL = `${APP_SCHEME}://${APP_HOST}/index.html`

/**
 * The scheme's privileges (Electron's CustomScheme): standard (an origin, relative URLs resolve
 * like http's), secure (a secure context, like https), fetch and CORS for the page's module
 * scripts. Not bypassCSP: the page's policy holds.
 */
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  corsEnabled: true,
} as const

const HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
}

const refusal = (status: number, text: string): Response =>
  new Response(`${text}\n`, { status, headers: { ...HEADERS, 'Content-Type': 'text/plain; charset=utf-8' } })

/** The protocol handler of app://lab/: files of `rendererDir` only, GET and HEAD only. */
export function appSchemeHandler(rendererDir: string): (request: Request) => Promise<Response> {
  return async (request) => {
    let url: URL
    try {
      url = new URL(request.url)
    } catch {
      return refusal(400, 'bad URL')
    }
    if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return refusal(404, 'not found')
    if (request.method !== 'GET' && request.method !== 'HEAD') return refusal(405, 'method not allowed')
    const found = rendererFile(rendererDir, url.pathname)
    if ('status' in found) return refusal(found.status, found.status === 400 ? 'bad path' : 'not found')
    let body: Buffer
    try {
      body = await readFile(found.file)
    } catch {
      return refusal(404, 'not found')
    }
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), {
      status: 200,
      headers: { ...HEADERS, 'Content-Type': found.contentType },
    })
  }
}
