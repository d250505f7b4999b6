// The privileged helper's protocol (`iosched-lab real-helper`): one JSON document per line, on the
// helper's stdin (requests) and stdout (everything it says). Only the process that started it can
// talk to it: there is no socket. Closing its stdin makes it cancel every run (restoring the
// devices) and exit, so a crashed app never leaves a root process or a switched device behind.
import type { RealBackend } from './real-backend'

export const HELPER_PROTOCOL = 1

/** The methods a helper serves: RealBackend's, plus `shutdown`. */
export type HelperMethod = 'checks' | 'doctor' | 'run' | 'fingerprint' | 'validate' | 'cancel' | 'shutdown'

/** App → helper. `params` is the method's arguments after the events object, as an array. */
export interface HelperRequest {
  id: number
  method: HelperMethod
  params: unknown[]
}

/** Helper → app. */
export type HelperMessage =
  /** First line, once the helper is ready: who it runs as. */
  | { type: 'hello'; protocol: number; pid: number; root: boolean; stateDir: string }
  /** An event of a running call (a RealExperimentEvents or ValidateEvents callback and its arguments). */
  | { type: 'event'; id: number; name: EventName; args: unknown[] }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'error'; id: number; error: HelperError }

/** An error as data: its class name (TargetRefused, CancelledError …), message, and problems if any. */
export interface HelperError {
  name: string
  message: string
  problems?: string[]
}

export type EventName =
  | 'notice'
  | 'targetReady'
  | 'phase'
  | 'runStarted'
  | 'progress'
  | 'runDone'
  | 'failed'
  /** A validation's stage began (ValidateEvents). */
  | 'stage'
  /** A validation's fingerprint is fitted (ValidateEvents): the document, for the app to save. */
  | 'fingerprinted'

export const EVENT_NAMES: readonly EventName[] = [
  'notice',
  'targetReady',
  'phase',
  'runStarted',
  'progress',
  'runDone',
  'failed',
  'stage',
  'fingerprinted',
]

/** Methods whose calls report events. */
export const WITH_EVENTS: ReadonlySet<HelperMethod> = new Set(['run', 'fingerprint', 'validate'])

/** Checks that the helper's method list matches RealBackend's (compile time). */
export type BackendMethod = Exclude<HelperMethod, 'shutdown'>
export const BACKEND_METHODS_MATCH: BackendMethod extends keyof RealBackend ? true : never = true

/** An error that crossed from the helper: the same name and message as the original. */
export class HelperCallError extends Error {
  readonly problems?: string[]
  constructor(e: HelperError) {
    super(e.message)
    this.name = e.name
    this.problems = e.problems
  }
}

export function errorData(e: unknown): HelperError {
  if (e instanceof Error) {
    const problems = (e as { problems?: unknown }).problems
    return Array.isArray(problems)
      ? { name: e.name, message: e.message, problems: problems.map(String) }
      : { name: e.name, message: e.message }
  }
  return { name: 'Error', message: String(e) }
}
