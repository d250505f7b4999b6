// The window's security policy as plain data, without an electron import, so a test can check it.

/**
 * The renderer's Content-Security-Policy; src/renderer/index.html carries the same string, and
 * the browser host and the app:// scheme send it as a header. `base-uri 'none'` keeps an injected
 * <base> from moving where relative URLs (the scripts) load from; `form-action 'none'` keeps a
 * form from posting anywhere (the app's forms are handled in script).
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; base-uri 'none'; form-action 'none'"

/**
 * Whether `url` is the app's own page: the same scheme and host (and port) as `appUrl` — the
 * dev server, or the app:// scheme — or, for a file:// page, the very same file. A hash or query
 * on our own page is fine; anything else is foreign. (Node's URL gives every scheme it does not
 * know, app: included, the opaque origin "null", so origins are not compared.)
 */
export function isAppUrl(url: string, appUrl: string): boolean {
  try {
    const u = new URL(url)
    const app = new URL(appUrl)
    if (u.protocol !== app.protocol) return false
    if (app.protocol === 'file:') return u.pathname === app.pathname
    return app.host !== '' && u.host === app.host
  } catch {
    return false
  }
}
