// The browser host: the built renderer and the LabApi over HTTP, run events over a WebSocket, on
// 127.0.0.1 by default, behind a random token (auth.ts). `iosched-lab serve` starts it; the
// end-to-end tests drive the renderer through it, since the Electron binary is not available there.
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { LabService } from '../services/lab-service'
import { handleApiCall } from './api-routes'
import type { BodyPolicy } from './api-routes'
import { BodyGate } from './body-gate'
import type { BodyStats } from './body-gate'
import { checkRequest, LOOPBACK_NAMES, newToken, requestUrl, setCookieHeader } from './auth'
import type { Gate } from './auth'
import { EventSocket } from './event-socket'
import { limitedServer } from './limited-server'
import { serverLimits } from './server-limits'
import type { ServerLimitOverrides } from './server-limits'
import { SECURITY_HEADERS, serveFile } from './static-files'

export interface LabServerOptions {
  lab: LabService
  /** The built renderer: a folder with index.html. */
  rendererDir: string
  /** Default 127.0.0.1. */
  host?: string
  /** Default 0: any free port. */
  port?: number
  /** Default: 24 random bytes, hex. */
  token?: string
  /** Overrides of DEFAULT_SERVER_LIMITS (server-limits.ts). */
  limits?: ServerLimitOverrides
}

export interface LabServer {
  /** The URL to open, with the token. */
  url: string
  /** The URL without the token. */
  origin: string
  token: string
  port: number
  /** What the server holds of request bodies now, and the most it has held. */
  bodies(): BodyStats
  close(): Promise<void>
}

/** A request that carries a body (it stays unread when the answer comes first). */
const hasBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0'

export async function startLabServer(o: LabServerOptions): Promise<LabServer> {
  const host = o.host ?? '127.0.0.1'
  const gate: Gate = { token: o.token ?? newToken(), port: 0, hosts: [] }
  const limits = serverLimits(o.limits)
  const bodies: BodyPolicy = {
    limits: limits.bodyBytes,
    heavyBytes: limits.heavyBodyBytes,
    retryAfterSeconds: limits.retryAfterSeconds,
    gate: new BodyGate(limits.maxHeavyRequests),
  }
  const events = new EventSocket()
  const unsubscribe = o.lab.on((e) => events.send(e))

  const denied = (res: ServerResponse, status: 401 | 403): void =>
    void res
      .writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' })
      .end(
        status === 401
          ? 'IOSched Lab: open the URL with the access token that `iosched-lab serve` printed.\n'
          : 'IOSched Lab: forbidden.\n',
      )

  const onRequest = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = requestUrl(req)
    const verdict = url ? checkRequest(req, url, gate) : 'forbidden'
    // Only API calls read a body: any other answer closes the connection rather than read the
    // rest of one to reuse it.
    const toApi = verdict === 'ok' && url?.pathname.startsWith('/api/')
    if (hasBody(req) && !toApi) res.setHeader('Connection', 'close')
    if (!url) return void res.writeHead(400, SECURITY_HEADERS).end('IOSched Lab: bad request target.\n')
    if (verdict === 'forbidden') return denied(res, 403)
    if (verdict === 'unauthorized') return denied(res, 401)
    if (verdict === 'query-token') {
      // Keep the token out of the address bar and history: set the cookie, go to the same page.
      url.searchParams.delete('token')
      const location = url.pathname + (url.search || '') + (url.hash || '')
      return void res.writeHead(303, { 'Set-Cookie': setCookieHeader(gate), Location: location }).end()
    }
    if (toApi) return handleApiCall(o.lab, url.pathname.slice(5), req, res, bodies)
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405).end()
    return serveFile(o.rendererDir, url.pathname, res)
  }

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy()) // a client that resets before the answer
    const url = requestUrl(req)
    if (!url) return void socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n')
    const verdict = checkRequest(req, url, gate)
    if (verdict !== 'ok' && verdict !== 'query-token') {
      socket.end(
        `HTTP/1.1 ${verdict === 'forbidden' ? '403 Forbidden' : '401 Unauthorized'}\r\nConnection: close\r\n\r\n`,
      )
      return
    }
    if (url.pathname !== '/api/events')
      return void socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n')
    events.upgrade(req, socket, head)
  }

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    onRequest(req, res).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500)
      res.end(String(e))
    })
  }
  const server: Server = limitedServer(limits, handle)
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // an exception here would end the process: whatever went wrong ends this connection only
    try {
      onUpgrade(req, socket, head)
    } catch {
      socket.destroy()
    }
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(o.port ?? 0, host, resolve)
  })
  const addr = server.address()
  if (!addr || typeof addr === 'string') throw new Error('the server has no port')
  gate.port = addr.port
  const loopback = LOOPBACK_NAMES.includes(host) || host.startsWith('127.') || host === '::1'
  gate.hosts = loopback ? [...new Set([...LOOPBACK_NAMES, host])] : []
  const shown = host.includes(':') ? `[${host}]` : host
  const origin = `http://${shown}:${addr.port}/`
  return {
    url: `${origin}?token=${gate.token}`,
    origin,
    token: gate.token,
    port: addr.port,
    bodies: () => bodies.gate.stats(),
    close: () =>
      new Promise<void>((resolve) => {
        unsubscribe()
        events.close()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
