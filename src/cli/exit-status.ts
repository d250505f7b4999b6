// The command line's exit statuses (README, "Exit status"): sysexits(3) codes beyond 0, 1 and 2.
import type { ApiErrorKind } from '../shared/api/errors'

export const EXIT = {
  ok: 0,
  /** A run (or a real test) failed. */
  failed: 1,
  /** Bad input: arguments, a spec, a file that is not what it should be, a missing session. */
  badInput: 2,
  /** A bug of the lab (EX_SOFTWARE): the message and stack go to stderr. */
  internal: 70,
  /** The disk refused a write (EX_IOERR): full, read-only, no permission; the old file is kept. */
  cannotWrite: 74,
  /** Another writer holds the session and did not finish in time (EX_TEMPFAIL): try again. */
  busy: 75,
  /** Interrupted (Ctrl+C). */
  interrupted: 130,
} as const

/** The exit status of a lab error that reached the command line; null: an internal error. */
export function exitStatusOf(kind: ApiErrorKind): number | null {
  switch (kind) {
    case 'bad-input':
    case 'not-found':
    case 'conflict':
      return EXIT.badInput
    case 'storage':
      return EXIT.cannotWrite
    case 'busy':
      return EXIT.busy
    default:
      return null
  }
}
