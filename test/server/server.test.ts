// The browser host over real HTTP and WebSocket on 127.0.0.1: token, 401/403, static files with
// the CSP, the API with validation, and run events.
import { mkdirSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { LabEvent } from '../../src/shared/api/lab-events'
import { startLabServer } from '../../src/main/server/lab-server'
import type { LabServer } from '../../src/main/server/lab-server'
import { CONTENT_SECURITY_POLICY } from '../../src/main/security'
import type { LabService } from '../../src/main/services/lab-service'
import { newService, quickSpec, tempDir } from '../api/fixtures'

let server: LabServer
let lab: LabService
const renderer = join(tempDir('iosched-renderer-'), 'renderer')

beforeAll(async () => {
  mkdirSync(join(renderer, 'assets'), { recursive: true })
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>IOSched Lab</title>')
  writeFileSync(join(renderer, 'assets', 'app-1234.js'), 'console.log(1)')
  writeFileSync(join(renderer, '..', 'secret.txt'), 'secret')
  lab = newService()
  server = await startLabServer({ lab, rendererDir: renderer })
})
afterAll(async () => {
  lab.dispose()
  await server.close()
})

/** A raw request (fetch would follow redirects and forbids setting Host). */
function get(path: string, headers: Record<string, string> = {}, method = 'GET', body?: string) {
  return new Promise<{
    status: number
    headers: Record<string, string | string[] | undefined>
    body: string
  }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method, headers }, (res) => {
      let text = ''
      res.on('data', (c) => (text += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}
const bearer = () => ({ Authorization: `Bearer ${server.token}` })
const call = (method: string, input?: unknown) =>
  get(
    `/api/${method}`,
    { ...bearer(), 'Content-Type': 'application/json' },
    'POST',
    input === undefined ? '' : JSON.stringify(input),
  )

describe('the browser host', () => {
  it('prints a loopback URL with a long random token', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{48}$/)
  })

  it('answers 401 without the token or with a wrong one, for pages, assets and the API', async () => {
    for (const p of ['/', '/index.html', '/assets/app-1234.js', '/api/catalogue', '/?token=nope'])
      expect((await get(p)).status, p).toBe(401)
    expect((await get('/', { Authorization: 'Bearer nope' })).status).toBe(401)
    expect((await get('/', { Cookie: `iosched-lab-${server.port}=nope` })).status).toBe(401)
    expect((await call('catalogue').then(() => get('/api/catalogue', {}, 'POST'))).status).toBe(401)
  })

  it('turns ?token= into an HttpOnly SameSite cookie and a redirect to the clean URL', async () => {
    const r = await get(`/?token=${server.token}`)
    expect(r.status).toBe(303)
    expect(r.headers.location).toBe('/')
    const cookie = String(r.headers['set-cookie'])
    expect(cookie).toContain(`iosched-lab-${server.port}=${server.token}`)
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Strict')
    const page = await get('/', { Cookie: cookie.split(';')[0] })
    expect(page.status).toBe(200)
    expect(page.body).toContain('<title>IOSched Lab</title>')
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY)
    const js = await get('/assets/app-1234.js', { Cookie: cookie.split(';')[0] })
    expect(js.headers['content-type']).toContain('text/javascript')
  })

  it('refuses a foreign Host (DNS rebinding) or Origin, and paths outside the renderer', async () => {
    expect((await get('/', { ...bearer(), Host: `evil.example:${server.port}` })).status).toBe(403)
    expect((await get('/', { ...bearer(), Origin: 'http://evil.example' })).status).toBe(403)
    expect((await get('/', { ...bearer(), Host: `localhost:${server.port}` })).status).toBe(200)
    expect((await get('/../secret.txt', bearer())).status).toBe(404)
    expect((await get('/%2e%2e/secret.txt', bearer())).status).toBe(404)
  })

  it('serves the API: values, bad input with issues, unknown methods', async () => {
    const cat = await call('catalogue')
    expect(cat.status).toBe(200)
    expect(JSON.parse(cat.body).value.schema).toBe('iosched-lab/catalogue@1')
    const v = await call('validateSpec', { spec: { ...quickSpec, repetitions: 0 } })
    expect(JSON.parse(v.body).value).toEqual({
      ok: false,
      issues: [{ path: 'repetitions', message: expect.stringContaining('') }],
    })
    const bad = await call('cancelRun', { runId: 5 })
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body).error).toMatchObject({ kind: 'bad-input', issues: [{ path: 'runId' }] })
    expect((await call('nope')).status).toBe(404)
    expect((await get('/api/catalogue', bearer())).status).toBe(405)
    const notJson = await get('/api/validateSpec', bearer(), 'POST', '{')
    expect(JSON.parse(notJson.body).error.message).toBe('request body is not JSON')
    const missing = await call('openSession', { path: '/nonexistent/x.json' })
    expect(missing.status).toBe(404)
  })

  it('streams run events over the WebSocket, and refuses it without the token', async () => {
    const wsUrl = `ws://127.0.0.1:${server.port}/api/events`
    const refused = await new Promise((resolve) => {
      const ws = new WebSocket(wsUrl)
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode))
      ws.on('error', () => undefined)
    })
    expect(refused).toBe(401)
    const ws = new WebSocket(wsUrl, { headers: bearer() })
    await new Promise((r) => ws.on('open', r))
    const events: LabEvent[] = []
    const done = new Promise<void>((resolve) =>
      ws.on('message', (d) => {
        const e = JSON.parse(String(d)) as LabEvent
        events.push(e)
        if (e.type === 'run:done' || e.type === 'run:failed') resolve()
      }),
    )
    const started = JSON.parse((await call('startRun', { spec: quickSpec })).body).value
    expect(started.jobs).toHaveLength(2)
    await done
    ws.close()
    expect(events.at(-1)).toMatchObject({ type: 'run:done', runId: started.runId })
    expect(events.filter((e) => e.type === 'run:job-done')).toHaveLength(2)
  })
})
