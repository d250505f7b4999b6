// Events of real-device work: notices of a run (repairs, warnings, skipped entries), and the
// progress and outcome of a fingerprint and of a validation. lab-events.ts puts them in the one
// LabEvent union.
import type { ValidateReport } from '../validate/report'
import type { FingerprintOutcome } from './real-contract'

/** Something a run wants the user to know (a warning, a repair, an entry the kernel lacks). */
export interface RunNoticeEvent {
  type: 'run:notice'
  runId: string
  message: string
}

export interface FingerprintProgressEvent {
  type: 'fingerprint:progress'
  runId: string
  /** 0 … 1, null when fio has not said yet. */
  fraction: number | null
  etaSeconds: number | null
}

export interface FingerprintDoneEvent {
  type: 'fingerprint:done'
  runId: string
  outcome: FingerprintOutcome
}

export interface FingerprintFailedEvent {
  type: 'fingerprint:failed'
  runId: string
  cancelled: boolean
  message: string
}

/** Where a validation is: its stage (k of n), and the real run going now with fio's progress. */
export interface ValidateProgressEvent {
  type: 'validate:progress'
  runId: string
  /** `fingerprint`, or the id of a workload of the matrix. */
  stage: string
  /** This is stage k (from 1) of n. */
  k: number
  n: number
  /** The real run going now (scheduler entry and repetition, from 0); null between runs. */
  run: { label: string; repetition: number } | null
  /** fio's progress of that run, 0 … 1; null when it has not said yet. */
  fraction: number | null
  etaSeconds: number | null
}

export interface ValidateDoneEvent {
  type: 'validate:done'
  runId: string
  /** The same document as `iosched-lab validate --json` (docs/validate-json.md). */
  report: ValidateReport
}

export interface ValidateFailedEvent {
  type: 'validate:failed'
  runId: string
  cancelled: boolean
  message: string
}

export type RealEvent =
  | RunNoticeEvent
  | FingerprintProgressEvent
  | FingerprintDoneEvent
  | FingerprintFailedEvent
  | ValidateProgressEvent
  | ValidateDoneEvent
  | ValidateFailedEvent
