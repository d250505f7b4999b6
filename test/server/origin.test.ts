// The browser host's Origin check: a header that is not a URL is refused (403), not a crash; the
// token is checked first (401 without it); only the host's own origin — scheme, host and port,
// as the page's Host names it — passes, and `null` (sandboxed frames, file:// pages) does not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { openRaw, send, startHost, until } from './harness'
import type { Host } from './harness'

let host: Host
let port: number
beforeAll(async () => {
  host = await startHost()
  port = host.server.port
})
afterAll(() => host.close())

const bearer = () => ({ Authorization: `Bearer ${host.server.token}` })
const status = async (headers: Record<string, string>) => (await send(port, '/', headers)).status

/** The status line of a WebSocket upgrade sent with `headers`, raw. */
async function upgradeStatus(headers: Record<string, string>): Promise<string> {
  const c = await openRaw(port)
  const lines = [
    'GET /api/events HTTP/1.1',
    `Host: 127.0.0.1:${port}`,
    'Connection: Upgrade',
    'Upgrade: websocket',
    'Sec-WebSocket-Version: 13',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ]
  c.socket.write(lines.join('\r\n') + '\r\n\r\n')
  await until(() => c.received().includes('\r\n') || c.isClosed(), 5000, 'an answer to the upgrade')
  c.socket.destroy()
  return c.received().split('\r\n')[0]
}

describe('an Origin header that is not a URL', () => {
  it('refuses a WebSocket upgrade with 403, and the host keeps serving', async () => {
    expect(await upgradeStatus({ ...bearer(), Origin: 'garbage' })).toBe('HTTP/1.1 403 Forbidden')
    expect(await status(bearer())).toBe(200)
  })

  it('answers a page request with 403, not 500', async () => {
    for (const origin of ['garbage', 'http://', 'http://[', '::::'])
      expect(await status({ ...bearer(), Origin: origin }), origin).toBe(403)
  })

  it('checks the token first: 401 without it, whatever the Origin', async () => {
    expect(await status({ Origin: 'garbage' })).toBe(401)
    expect(await upgradeStatus({ Origin: 'garbage' })).toBe('HTTP/1.1 401 Unauthorized')
  })
})

describe('the Origin must be the host own origin', () => {
  it('refuses another scheme, another port, or null', async () => {
    for (const origin of [
      `https://127.0.0.1:${port}`,
      `http://127.0.0.1:${port + 1}`,
      `http://127.0.0.1`,
      `ws://127.0.0.1:${port}`,
      'null',
      `http://127.0.0.1:${port}/path`,
    ])
      expect(await status({ ...bearer(), Origin: origin }), origin).toBe(403)
    expect(await upgradeStatus({ ...bearer(), Origin: 'null' })).toBe('HTTP/1.1 403 Forbidden')
  })

  it('refuses a loopback name other than the one the page was loaded from', async () => {
    const origin = `http://localhost:${port}`
    expect(await status({ ...bearer(), Host: `127.0.0.1:${port}`, Origin: origin })).toBe(403)
  })

  it('accepts the page own origin, under each loopback name', async () => {
    expect(await status({ ...bearer(), Origin: `http://127.0.0.1:${port}` })).toBe(200)
    const h = { Host: `localhost:${port}`, Origin: `http://localhost:${port}` }
    expect(await status({ ...bearer(), ...h })).toBe(200)
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/events`, {
      headers: bearer(),
      origin: `http://127.0.0.1:${port}`,
    })
    await new Promise((resolve, reject) => {
      ws.on('open', resolve)
      ws.on('error', reject)
    })
    ws.close()
  })
})

describe('other malformed headers', () => {
  it('answers a cookie that is not percent-encoding with 401, on pages and upgrades', async () => {
    const cookie = { Cookie: `iosched-lab-${port}=%E0%A4%A` }
    expect(await status(cookie)).toBe(401)
    expect(await upgradeStatus(cookie)).toBe('HTTP/1.1 401 Unauthorized')
    expect(await status(bearer())).toBe(200)
  })

  it('answers a request target that is not a URL with 400', async () => {
    const c = await openRaw(port)
    c.socket.write(`GET http://[ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`)
    await until(() => c.received().includes('\r\n') || c.isClosed(), 5000, 'an answer')
    c.socket.destroy()
    expect(c.received().split('\r\n')[0]).toMatch(/^HTTP\/1\.1 400 /)
    expect(await status(bearer())).toBe(200)
  })
})
