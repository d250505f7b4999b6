// The browser host's connection limits over real sockets: clients that send headers slowly or not
// at all (slowloris), bodies that stall, idle keep-alive and silent connections are closed; more
// connections than the most are closed as they come, and accepted again once others have gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { openRaw, send, startHost, until } from './harness'
import type { Host, RawConnection } from './harness'

const bearer = (host: Host) => ({ Authorization: `Bearer ${host.server.token}` })
const closeAll = (cs: RawConnection[]) => cs.forEach((c) => c.socket.destroy())

describe('timeouts', () => {
  let host: Host
  beforeAll(
    async () =>
      (host = await startHost({
        limits: {
          headersTimeoutMs: 400,
          requestTimeoutMs: 800,
          timeoutCheckIntervalMs: 50,
          keepAliveTimeoutMs: 300,
        },
      })),
  )
  afterAll(() => host.close())

  it('closes connections that send partial headers, trickle them, or send nothing', async () => {
    const port = host.server.port
    const partial = await Promise.all(Array.from({ length: 20 }, () => openRaw(port)))
    for (const c of partial) c.socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`)
    const trickling = await Promise.all(Array.from({ length: 20 }, () => openRaw(port)))
    const timer = setInterval(() => {
      for (const c of trickling) if (!c.isClosed()) c.socket.write('X-Slow: 1\r\n')
    }, 50)
    const silent = await Promise.all(Array.from({ length: 20 }, () => openRaw(port)))
    const all = [...partial, ...trickling, ...silent]
    try {
      await until(() => all.every((c) => c.isClosed()), 10_000, 'every slow connection closed')
    } finally {
      clearInterval(timer)
      closeAll(all)
    }
    expect(partial[0].received()).toMatch(/^HTTP\/1\.1 408 /)
    expect((await send(port, '/', bearer(host))).status).toBe(200)
  })

  it('closes a connection whose body stalls, and frees what it held', async () => {
    const c = await openRaw(host.server.port)
    c.socket.write(
      `POST /api/validateSpec HTTP/1.1\r\nHost: 127.0.0.1:${host.server.port}\r\n` +
        `Authorization: Bearer ${host.server.token}\r\nContent-Length: 4000000\r\n\r\n{"spec": "`,
    )
    await until(() => c.isClosed(), 10_000, 'the stalled request closed')
    await until(() => host.server.bodies().heavy === 0 && host.server.bodies().held === 0, 5000, 'freed')
  })

  it('closes a kept-alive connection once it has been idle for the keep-alive timeout', async () => {
    const c = await openRaw(host.server.port)
    c.socket.write(
      `GET / HTTP/1.1\r\nHost: 127.0.0.1:${host.server.port}\r\nAuthorization: Bearer ${host.server.token}\r\n\r\n`,
    )
    await until(() => c.received().includes('IOSched Lab</title>'), 5000, 'the page')
    expect(c.received()).toMatch(/\r\nConnection: keep-alive\r\n/i)
    await until(() => c.isClosed(), 10_000, 'the idle connection closed')
  })
})

describe('the idle timeout', () => {
  let host: Host
  beforeAll(
    async () =>
      (host = await startHost({
        limits: { idleTimeoutMs: 300, headersTimeoutMs: 60_000, requestTimeoutMs: 120_000 },
      })),
  )
  afterAll(() => host.close())

  it('closes a connection with no traffic before the headers timeout would', async () => {
    const c = await openRaw(host.server.port)
    c.socket.write('GET / HTTP/1.1\r\n')
    await until(() => c.isClosed(), 10_000, 'the silent connection closed')
  })
})

describe('the connection limit', () => {
  let host: Host
  beforeAll(async () => (host = await startHost({ limits: { maxConnections: 5 } })))
  afterAll(() => host.close())

  it('closes connections over the most at once, and accepts again when some have gone', async () => {
    const port = host.server.port
    const held = await Promise.all(Array.from({ length: 5 }, () => openRaw(port)))
    // the server has accepted them all once one of them is answered
    held[0].socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`)
    await until(() => held[0].received().includes('401'), 5000, 'an answer on a held connection')
    const over = await openRaw(port)
    over.socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`)
    await until(() => over.isClosed(), 5000, 'the extra connection closed')
    expect(over.received()).toBe('')
    expect(held.some((c) => c.isClosed())).toBe(false)

    closeAll(held)
    await until(() => held.every((c) => c.isClosed()), 5000, 'the held connections closed')
    // the server counts a connection gone once it has seen it close: ask until it has
    let status = 0
    for (let tries = 0; status !== 200 && tries < 100; tries++) {
      status = await send(port, '/', bearer(host)).then(
        (r) => r.status,
        () => 0,
      )
      if (status !== 200) await new Promise((r) => setTimeout(r, 20))
    }
    expect(status).toBe(200)
  })
})

describe('a WebSocket', () => {
  let host: Host
  beforeAll(
    async () =>
      (host = await startHost({
        limits: {
          headersTimeoutMs: 200,
          requestTimeoutMs: 300,
          keepAliveTimeoutMs: 200,
          idleTimeoutMs: 200,
          timeoutCheckIntervalMs: 50,
        },
      })),
  )
  afterAll(() => host.close())

  it('stays open past every request timeout, quiet as it is', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.server.port}/api/events`, { headers: bearer(host) })
    await new Promise((resolve, reject) => {
      ws.on('open', resolve)
      ws.on('error', reject)
    })
    let closed = false
    ws.on('close', () => (closed = true))
    await new Promise((r) => setTimeout(r, 1000))
    expect(closed).toBe(false)
    const pong = new Promise((r) => ws.once('pong', r))
    ws.ping()
    await pong
    ws.close()
  })
})
