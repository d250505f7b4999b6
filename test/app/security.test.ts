// The renderer's Content-Security-Policy and what counts as the app's own page.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CONTENT_SECURITY_POLICY, isAppUrl } from '../../src/main/security'

const directives = new Map(
  CONTENT_SECURITY_POLICY.split(';').map((d) => {
    const [name, ...values] = d.trim().split(/\s+/)
    return [name, values] as const
  }),
)

describe('the Content-Security-Policy', () => {
  it("allows no <base>, no form posting, and scripts from the page's own origin only", () => {
    expect(directives.get('base-uri')).toEqual(["'none'"])
    expect(directives.get('form-action')).toEqual(["'none'"])
    expect(directives.get('script-src')).toEqual(["'self'"])
    expect(directives.get('default-src')).toEqual(["'self'"])
  })

  it('is the one in the renderer page source', () => {
    const html = readFileSync(join(import.meta.dirname, '../../src/renderer/index.html'), 'utf8')
    const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)
    expect(meta?.[1]).toBe(CONTENT_SECURITY_POLICY)
  })
})

describe('isAppUrl', () => {
  it('takes the app:// page by scheme and host, whatever Node makes of its origin', () => {
    expect(isAppUrl('app://lab/index.html#/results', 'app://lab/index.html')).toBe(true)
    expect(isAppUrl('app://lab/assets/x.js', 'app://lab/index.html')).toBe(true)
    // Node gives both the opaque origin "null": they must not match for that
    expect(isAppUrl('foo://evil/', 'app://lab/index.html')).toBe(false)
    expect(isAppUrl('app://evil/index.html', 'app://lab/index.html')).toBe(false)
    expect(isAppUrl('https://lab/index.html', 'app://lab/index.html')).toBe(false)
  })

  it('takes a dev server by origin and a file:// page by its very file', () => {
    expect(isAppUrl('http://localhost:5173/#/x', 'http://localhost:5173/')).toBe(true)
    expect(isAppUrl('http://localhost:5174/', 'http://localhost:5173/')).toBe(false)
    expect(isAppUrl('file:///opt/lab/index.html#/x', 'file:///opt/lab/index.html')).toBe(true)
    expect(isAppUrl('file:///etc/passwd', 'file:///opt/lab/index.html')).toBe(false)
    expect(isAppUrl('not a url', 'app://lab/index.html')).toBe(false)
  })
})
