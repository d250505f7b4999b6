// Errors that cross the API boundary as data: a kind, a message and, for bad input, the issues.
import type { ParamIssue } from '../util/params'

/**
 * `conflict`: a save would replace a file it was not told to (or one changed since it was opened).
 * `busy`: another writer holds the session and did not finish in time (try again). `storage`: the
 * disk refused a write — full, read-only, no permission — and nothing was changed.
 */
export type ApiErrorKind =
  'bad-input' | 'not-found' | 'conflict' | 'busy' | 'storage' | 'unknown-method' | 'internal'

/** What a transport sends back for a failed call (HTTP body, IPC rejection payload). */
export interface ApiErrorData {
  kind: ApiErrorKind
  message: string
  issues?: ParamIssue[]
}

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly issues?: ParamIssue[],
  ) {
    super(message)
    this.name = 'ApiError'
  }

  toData(): ApiErrorData {
    return this.issues
      ? { kind: this.kind, message: this.message, issues: this.issues }
      : { kind: this.kind, message: this.message }
  }

  static from(data: unknown): ApiError {
    const d = (typeof data === 'object' && data !== null ? data : {}) as Partial<ApiErrorData>
    return new ApiError(d.kind ?? 'internal', d.message ?? String(data), d.issues)
  }
}

/** Any thrown value as error data: ApiErrors keep their kind, anything else is internal. */
export function toErrorData(e: unknown): ApiErrorData {
  if (e instanceof ApiError) return e.toData()
  return { kind: 'internal', message: e instanceof Error ? e.message : String(e) }
}

/** A call's answer on the wire (IPC, HTTP body): the value, or the error as data. */
export type LabReply = { value: unknown } | { error: ApiErrorData }
