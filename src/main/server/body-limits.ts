// How much request body the browser host reads for each API method, as data with the reason. A
// body over its method's limit is refused with 413 as soon as its Content-Length says so, or at
// the first byte over the limit; reading stops there and the connection is closed. Bodies over
// HEAVY_BODY_BYTES take one of MAX_HEAVY_REQUESTS slots while they are read and handled (503 with
// Retry-After when none is free), so a few large uploads at once cannot fill the memory.
import type { LabMethod } from '../../shared/api/contract'

const MiB = 2 ** 20

export interface BodyLimit {
  bytes: number
  /** What a body of this kind holds, and so why the limit is what it is. */
  holds: string
}

export const BODY_LIMITS = {
  small: {
    bytes: 1 * MiB,
    holds: 'run ids, paths, library queries, a session name with notes (at most 100 000 characters) and tags',
  },
  spec: {
    bytes: 48 * MiB,
    holds:
      'a spec document: a few kB, but a trace-replay workload carries its blkparse trace inline, as imported (up to the import limit, JSON-escaped)',
  },
  session: {
    bytes: 64 * MiB,
    holds:
      "a session's spec, results and runs with their time series (the flagship's eight runs are about 4.7 MB of JSON)",
  },
  import: {
    bytes: 32 * MiB,
    holds:
      "tools' outputs to import; the importers parse each whole text, so the files are read into memory, up to this",
  },
} as const satisfies Record<string, BodyLimit>

export type BodyLimitName = keyof typeof BODY_LIMITS

/** Every method's kind of body; the compiler refuses a method without one. */
export const METHOD_BODY = {
  catalogue: 'small',
  examples: 'small',
  validateSpec: 'spec',
  startRun: 'spec',
  cancelRun: 'small',
  listSessions: 'small',
  saveSession: 'session',
  openSession: 'small',
  library: 'small',
  realAccess: 'small',
  devices: 'small',
  previewRealRun: 'spec',
  startRealRun: 'spec',
  doctor: 'small',
  startFingerprint: 'small',
  fingerprintPresets: 'small',
  startValidation: 'small',
  startupRepairs: 'small',
  runStatus: 'small',
  librarySearch: 'small',
  libraryCompare: 'small',
  setSessionMeta: 'small',
  importFiles: 'import',
  exportReport: 'session',
  startReproduce: 'small',
} as const satisfies Record<LabMethod, BodyLimitName>

/** A body larger than this is heavy: it needs a free slot to be read. */
export const HEAVY_BODY_BYTES = 1 * MiB
/** Heavy requests read and handled at once (each may hold its body and what it parses to). */
export const MAX_HEAVY_REQUESTS = 2
/** What a refused heavy request is told to wait, seconds. */
export const BUSY_RETRY_AFTER_SECONDS = 2

/** `n` bytes for a message: `64 MiB`, `512 KiB`, `100 bytes`. */
export function formatBytes(n: number): string {
  if (n >= MiB && n % MiB === 0) return `${n / MiB} MiB`
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`
  return `${n} bytes`
}
