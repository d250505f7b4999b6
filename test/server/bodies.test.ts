// Request bodies of the browser host: read as they arrive within their method's limit, refused
// with 413 (reading stops, the connection closes) over it, and only a few large ones at once
// (503 with Retry-After beyond). What the server holds is checked by its own count of buffered
// bytes, not by the process's memory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BODY_LIMITS, formatBytes } from '../../src/main/server/body-limits'
import { DEFAULT_SERVER_LIMITS } from '../../src/main/server/server-limits'
import { openRaw, send, startHost, until } from './harness'
import type { Host, RawConnection } from './harness'

const KiB = 1024

/** Headers of a POST to /api/<method>, as raw text. */
function head(host: Host, method: string, headers: Record<string, string | number>): string {
  const all = {
    Host: `127.0.0.1:${host.server.port}`,
    Authorization: `Bearer ${host.server.token}`,
    'Content-Type': 'application/json',
    ...headers,
  }
  return (
    `POST /api/${method} HTTP/1.1\r\n` +
    Object.entries(all)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('') +
    '\r\n'
  )
}

const statusLine = (c: RawConnection) => c.received().split('\r\n')[0]
const answered = (c: RawConnection) => c.received().includes('\r\n\r\n') || c.isClosed()
/** The JSON body of a (Content-Length) answer, once the server has closed the connection. */
async function jsonOf(c: RawConnection) {
  await c.closed
  return JSON.parse(c.received().slice(c.received().indexOf('\r\n\r\n') + 4))
}

/** Keep writing `chunk` as chunked encoding until the server answers or closes; bytes written. */
async function pumpChunked(c: RawConnection, chunk: Buffer, most: number): Promise<number> {
  let written = 0
  while (!answered(c) && written < most) {
    const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])
    written += chunk.length
    if (!c.socket.write(frame))
      await new Promise<void>((r) => {
        const t = setInterval(() => answered(c) && (clearInterval(t), r()), 10)
        c.socket.once('drain', () => (clearInterval(t), r()))
      })
  }
  return written
}

const bearer = (host: Host) => ({ Authorization: `Bearer ${host.server.token}` })
const post = (host: Host, method: string, body: string) =>
  send(
    host.server.port,
    `/api/${method}`,
    { ...bearer(host), 'Content-Type': 'application/json' },
    'POST',
    body,
  )

/** A JSON object of about `bytes` bytes: `{ ...fields, pad: "xxx…" }`. */
const padded = (bytes: number, fields: Record<string, unknown> = {}) => {
  const base = JSON.stringify({ ...fields, pad: '' })
  return JSON.stringify({ ...fields, pad: 'x'.repeat(Math.max(0, bytes - base.length)) })
}

describe('with the default limits', () => {
  let host: Host
  beforeAll(async () => (host = await startHost()))
  afterAll(() => host.close())

  it("refuses a Content-Length over the method's limit with 413 before reading any of it", async () => {
    const c = await openRaw(host.server.port)
    c.socket.write(head(host, 'validateSpec', { 'Content-Length': BODY_LIMITS.spec.bytes + 1 }))
    await until(() => answered(c), 5000, 'the answer')
    expect(statusLine(c)).toBe('HTTP/1.1 413 Payload Too Large')
    expect(c.received()).toMatch(/\r\nConnection: close\r\n/i)
    expect((await jsonOf(c)).error.message).toContain(`over ${formatBytes(BODY_LIMITS.spec.bytes)}`)
    await c.closed
    expect(host.server.bodies().peak).toBe(0)
  })

  it('gives each method its own limit: a body too large for cancelRun is read for saveSession', async () => {
    const body = padded(BODY_LIMITS.small.bytes + KiB, { name: 's', spec: {} })
    const small = await post(host, 'cancelRun', body)
    expect(small.status).toBe(413)
    expect(JSON.parse(small.body).error.message).toMatch(/^cancelRun: the request body is over 1 MiB/)
    const session = await post(host, 'saveSession', body)
    // read, parsed and validated: `pad` is not a field of saveSession
    expect(session.status).toBe(400)
    expect(JSON.parse(session.body).error.issues).toEqual([expect.objectContaining({ path: '' })])
  })

  it('answers Expect: 100-continue with 413 at once when too large, else with 100 Continue', async () => {
    const over = await openRaw(host.server.port)
    over.socket.write(
      head(host, 'importFiles', { 'Content-Length': BODY_LIMITS.import.bytes + 1, Expect: '100-continue' }),
    )
    await until(() => answered(over), 5000, 'the refusal')
    expect(statusLine(over)).toBe('HTTP/1.1 413 Payload Too Large')
    expect(over.received()).not.toContain('100 Continue')
    over.socket.destroy()

    const body = JSON.stringify({ spec: { name: 'x' } })
    const ok = await openRaw(host.server.port)
    ok.socket.write(head(host, 'validateSpec', { 'Content-Length': body.length, Expect: '100-continue' }))
    await until(() => ok.received().includes('\r\n\r\n'), 5000, '100 Continue')
    expect(statusLine(ok)).toBe('HTTP/1.1 100 Continue')
    ok.socket.write(body)
    await until(() => ok.received().includes('HTTP/1.1 200'), 5000, 'the answer')
    ok.socket.destroy()
  })

  it('closes the connection of a request it answers without reading its body', async () => {
    const c = await openRaw(host.server.port)
    c.socket.write(
      `POST /api/validateSpec HTTP/1.1\r\nHost: 127.0.0.1:${host.server.port}\r\nContent-Length: 100000000\r\n\r\n`,
    )
    await until(() => answered(c), 5000, 'the answer')
    expect(statusLine(c)).toBe('HTTP/1.1 401 Unauthorized')
    expect(c.received()).toMatch(/\r\nConnection: close\r\n/i)
    await c.closed
  })
})

describe('with small limits', () => {
  let host: Host
  beforeAll(
    async () =>
      (host = await startHost({
        limits: {
          bodyBytes: { spec: 256 * KiB, small: 64 * KiB },
          heavyBodyBytes: 4 * KiB,
          maxHeavyRequests: 2,
        },
      })),
  )
  afterAll(() => host.close())

  it('stops reading a chunked body at its limit: 413, closed, never more than the limit held', async () => {
    const c = await openRaw(host.server.port)
    c.socket.write(head(host, 'validateSpec', { 'Transfer-Encoding': 'chunked' }))
    const written = await pumpChunked(c, Buffer.alloc(16 * KiB, 0x20), 256 * 2 ** 20)
    await until(() => answered(c), 5000, 'the answer')
    expect(statusLine(c)).toBe('HTTP/1.1 413 Payload Too Large')
    expect((await jsonOf(c)).error.message).toContain('over 256 KiB')
    await c.closed
    expect(written).toBeLessThan(256 * 2 ** 20)
    expect(host.server.bodies().peak).toBeLessThanOrEqual(256 * KiB)
    expect(host.server.bodies().held).toBe(0)
  })

  it('reads at most two heavy bodies at once: 503 with Retry-After beyond, small ones still served', async () => {
    const holding = await Promise.all([openRaw(host.server.port), openRaw(host.server.port)])
    for (const c of holding) {
      c.socket.write(head(host, 'validateSpec', { 'Content-Length': 100 * KiB }))
      c.socket.write('{"spec": "')
    }
    await until(() => host.server.bodies().heavy === 2, 5000, 'two heavy requests')

    const heavy = padded(8 * KiB, { spec: {} })
    const busy = await post(host, 'validateSpec', heavy)
    expect(busy.status).toBe(503)
    expect(busy.headers['retry-after']).toBe(String(DEFAULT_SERVER_LIMITS.retryAfterSeconds))
    expect(JSON.parse(busy.body).error.message).toContain('try again')

    // a chunked body that turns heavy while the slots are taken is refused there
    const chunked = await openRaw(host.server.port)
    chunked.socket.write(head(host, 'validateSpec', { 'Transfer-Encoding': 'chunked' }))
    await pumpChunked(chunked, Buffer.alloc(KiB, 0x20), 256 * KiB)
    await until(() => answered(chunked), 5000, 'the answer')
    expect(statusLine(chunked)).toBe('HTTP/1.1 503 Service Unavailable')

    expect((await post(host, 'validateSpec', JSON.stringify({ spec: {} }))).status).toBe(200)

    holding[0].socket.destroy()
    await until(() => host.server.bodies().heavy === 1, 5000, 'a freed slot')
    expect((await post(host, 'validateSpec', heavy)).status).toBe(400) // read: `pad` is not an input
    holding[1].socket.destroy()
    await until(() => host.server.bodies().heavy === 0, 5000, 'every slot freed')
    expect(host.server.bodies().held).toBe(0)
  })
})
