// The window's security policy as plain data, without an electron import, so a test can check it.

/** The renderer's Content-Security-Policy; src/renderer/index.html carries the same string. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'"

/**
 * Whether `url` is the app's own page: the dev server's origin, or (built) the very index.html
 * file. A hash or query on our own page is fine; anything else is foreign.
 */
export function isAppUrl(url: string, appUrl: string): boolean {
  try {
    const u = new URL(url)
    const app = new URL(appUrl)
    if (app.protocol === 'file:') return u.protocol === 'file:' && u.pathname === app.pathname
    return u.origin === app.origin
  } catch {
    return false
  }
}
