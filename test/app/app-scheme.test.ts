// The app:// scheme's handler, driven with plain Requests as Electron's protocol.handle passes
// them: the renderer's files with their type and the CSP, and nothing outside its folder.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { APP_INDEX_URL, APP_SCHEME_PRIVILEGES, appSchemeHandler } from '../../src/main/app-scheme'
import { CONTENT_SECURITY_POLICY } from '../../src/main/security'
import { tempDir } from '../api/fixtures'

const renderer = join(tempDir('iosched-app-scheme-'), 'renderer')
// with a trailing slash, as index.ts passes it
const handle = appSchemeHandler(renderer + '/')
const get = (url: string, method = 'GET') => handle(new Request(url, { method }))

beforeAll(() => {
  mkdirSync(join(renderer, 'assets'), { recursive: true })
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>IOSched Lab</title>')
  writeFileSync(join(renderer, 'assets', 'index-1234.js'), 'console.log(1)')
  writeFileSync(join(renderer, '..', 'secret.txt'), 'secret')
  writeFileSync(join(renderer, '..', 'renderer-evil.txt'), 'secret')
})

describe('the app:// scheme', () => {
  it('serves the page at app://lab/index.html and at /, with the CSP and its type', async () => {
    for (const url of [APP_INDEX_URL, 'app://lab/']) {
      const r = await get(url)
      expect(r.status, url).toBe(200)
      expect(await r.text()).toContain('<title>IOSched Lab</title>')
      expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(r.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY)
    }
    const js = await get('app://lab/assets/index-1234.js')
    expect(js.headers.get('content-type')).toContain('text/javascript')
    expect(await js.text()).toBe('console.log(1)')
    const head = await get('app://lab/assets/index-1234.js', 'HEAD')
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
  })

  it('refuses every path out of the renderer folder', async () => {
    for (const url of [
      'app://lab/../secret.txt',
      'app://lab/%2e%2e/secret.txt',
      'app://lab/..%2fsecret.txt',
      'app://lab/assets/..%2f..%2fsecret.txt',
      'app://lab/%2e%2e%2f%2e%2e%2fsecret.txt',
      'app://lab/..%2frenderer-evil.txt',
      'app://lab/%2fetc%2fpasswd',
    ]) {
      const r = await get(url)
      expect(r.status, url).toBe(404)
      expect(await r.text(), url).not.toContain('secret')
    }
  })

  it('answers 404 for missing files, folders and other hosts; 400 for bad encoding or NUL; 405 for POST', async () => {
    expect((await get('app://lab/missing.js')).status).toBe(404)
    expect((await get('app://lab/assets/')).status).toBe(404)
    expect((await get('app://other/index.html')).status).toBe(404)
    expect((await get('app://lab/%E0%A4%A')).status).toBe(400)
    expect((await get('app://lab/index.html%00.js')).status).toBe(400)
    expect((await get('app://lab/index.html', 'POST')).status).toBe(405)
  })

  it('is registered standard and secure, and does not bypass the CSP', () => {
    expect(APP_SCHEME_PRIVILEGES).toMatchObject({ standard: true, secure: true })
    expect(APP_SCHEME_PRIVILEGES).not.toHaveProperty('bypassCSP')
  })
})
