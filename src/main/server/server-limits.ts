// The browser host's limits in one place, with their defaults: request bodies (body-limits.ts).
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
