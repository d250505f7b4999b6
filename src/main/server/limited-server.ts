// The browser host's HTTP server with its connection limits (server-limits.ts): headers, whole
// requests and idle connections time out (Node answers 408 and closes), and connections beyond
// the most are closed as they come, so clients that open many and send slowly cannot pile up.
import { createServer } from 'node:http'
import type { RequestListener, Server } from 'node:http'
import type { ServerLimits } from './server-limits'

export function limitedServer(limits: ServerLimits, handle: RequestListener): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.timeoutCheckIntervalMs,
    },
    handle,
  )
  server.keepAliveTimeout = limits.keepAliveTimeoutMs
  server.maxConnections = limits.maxConnections
  // with no 'timeout' listener, Node destroys a socket idle this long
  server.setTimeout(limits.idleTimeoutMs)
  // Expect: 100-continue is answered by the API route once the declared length is acceptable
  server.on('checkContinue', handle)
  return server
}
