// Events of real-device work: notices of a run (repairs, warnings, skipped entries) and the
// progress and outcome of a fingerprint. lab-events.ts puts them in the one LabEvent union.
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

export type RealEvent =
  RunNoticeEvent | FingerprintProgressEvent | FingerprintDoneEvent | FingerprintFailedEvent
