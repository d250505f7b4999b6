// The browser host's limits in one place, with their defaults: request bodies (body-limits.ts),
// how long a connection may take over each part of a request, and how many connections it holds.
// startLabServer takes overrides (the tests use small ones).
import { BODY_LIMITS, BUSY_RETRY_AFTER_SECONDS, HEAVY_BODY_BYTES, MAX_HEAVY_REQUESTS } from './body-limits'
import type { BodyLimitName } from './body-limits'

export interface ServerLimits {
  /** Request body bytes per kind of API method. */
  bodyBytes: Record<BodyLimitName, number>
  /** Over this, a body is heavy and needs one of `maxHeavyRequests` slots. */
  heavyBodyBytes: number
  maxHeavyRequests: number
  /** Retry-After of a heavy request refused for want of a slot, s. */
  retryAfterSeconds: number
  /** From the connection (or the previous request) to the end of a request's headers, ms. */
  headersTimeoutMs: number
  /** To the end of a whole request, body included, ms. */
  requestTimeoutMs: number
  /** An idle connection kept open for the next request, ms. */
  keepAliveTimeoutMs: number
  /** A connection with no traffic either way (a client that stops reading an answer), ms. */
  idleTimeoutMs: number
  /** How often Node checks the headers and request timeouts, ms. */
  timeoutCheckIntervalMs: number
  /** Connections at once (WebSockets included); more are closed as they come. */
  maxConnections: number
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  bodyBytes: {
    small: BODY_LIMITS.small.bytes,
    spec: BODY_LIMITS.spec.bytes,
    session: BODY_LIMITS.session.bytes,
    import: BODY_LIMITS.import.bytes,
  },
  heavyBodyBytes: HEAVY_BODY_BYTES,
  maxHeavyRequests: MAX_HEAVY_REQUESTS,
  retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS,
  // a page's requests are small and quick: slow headers are a client holding a connection
  headersTimeoutMs: 10_000,
  // the largest body (a 64 MiB session) over a slow network, with room
  requestTimeoutMs: 120_000,
  keepAliveTimeoutMs: 5_000,
  // longer than any API call takes to answer
  idleTimeoutMs: 120_000,
  timeoutCheckIntervalMs: 1_000,
  // a few browser tabs use a handful each (six per host, and a WebSocket)
  maxConnections: 128,
}

/** Some of the limits; `bodyBytes` may name some kinds only. */
export type ServerLimitOverrides = Partial<Omit<ServerLimits, 'bodyBytes'>> & {
  bodyBytes?: Partial<ServerLimits['bodyBytes']>
}

/** The defaults with `o` over them (`bodyBytes` merged kind by kind). */
export function serverLimits(o: ServerLimitOverrides = {}): ServerLimits {
  return {
    ...DEFAULT_SERVER_LIMITS,
    ...o,
    bodyBytes: { ...DEFAULT_SERVER_LIMITS.bodyBytes, ...o.bodyBytes },
  }
}
