// The lab's events: what a run reports while it goes. Delivered by IPC (app), WebSocket (browser
// host) or a direct listener (tests), always as these plain objects.
import type { RunResult } from '../experiment/result'
import type { RunJobRef } from './contract'
import type { RealEvent } from './real-events'
import type { GalleryEvent } from './gallery-events'
import type { ExperimentOutcome, SweepOutcome } from './run-outcome'

export interface RunProgressEvent {
  type: 'run:progress'
  runId: string
  job: RunJobRef
  /** Share of the simulation done, 0 … 1. */
  fraction: number
  /** Simulated time reached. */
  simSeconds: number
  /** Wall-clock seconds left for this job, from its pace so far (null before there is a pace). */
  etaSeconds: number | null
  /**
   * A real run before its engine's first progress: what it is doing (preparing the scratch device,
   * dropping the page cache, switching the scheduler, starting fio). Absent once fio reports.
   */
  phase?: string
}

/** One job finished: its result, so tables and charts fill in while the others run. */
export interface RunJobDoneEvent {
  type: 'run:job-done'
  runId: string
  job: RunJobRef
  result: RunResult
}

/** One job failed (its process crashed or the simulation threw); the others go on. */
export interface RunJobFailedEvent {
  type: 'run:job-failed'
  runId: string
  job: RunJobRef
  message: string
}

/**
 * Repeating until stable: another round of jobs joins the run (one more repetition of each
 * scheduler entry whose processes still vary); progress, results and failures follow as for the
 * jobs `startRun` answered with.
 */
export interface RunJobsAddedEvent {
  type: 'run:jobs-added'
  runId: string
  jobs: RunJobRef[]
}

/**
 * The run is over and at least one job succeeded. Its runs are not sent again: each came in its
 * run:job-done, and the outcome names them in order (run-outcome.ts puts the result back together).
 */
export interface RunDoneEvent {
  type: 'run:done'
  runId: string
  /** Without a sweep: the experiment. With a sweep: the first point's. */
  result: ExperimentOutcome
  sweep: SweepOutcome | null
  /** Jobs that failed, with why. */
  failures: { job: RunJobRef; message: string }[]
  wallSeconds: number
}

/** The run is over without a result: cancelled, every job failed, or an internal error. */
export interface RunFailedEvent {
  type: 'run:failed'
  runId: string
  cancelled: boolean
  message: string
}

export type LabEvent =
  | RunProgressEvent
  | RunJobDoneEvent
  | RunJobFailedEvent
  | RunJobsAddedEvent
  | RunDoneEvent
  | RunFailedEvent
  | RealEvent
  | GalleryEvent

export type LabEventType = LabEvent['type']

/** Every event type, for transports that register per type (compile-checked against LabEvent). */
export const LAB_EVENT_TYPES = [
  'run:progress',
  'run:job-done',
  'run:job-failed',
  'run:jobs-added',
  'run:done',
  'run:failed',
  'run:notice',
  'fingerprint:progress',
  'fingerprint:done',
  'fingerprint:failed',
  'validate:progress',
  'validate:done',
  'validate:failed',
  'reproduce:progress',
  'reproduce:done',
  'reproduce:failed',
] as const satisfies readonly LabEventType[]

type Missing = Exclude<LabEventType, (typeof LAB_EVENT_TYPES)[number]>
/** Fails to compile when an event type is missing from the list above. */
export const EVENT_LIST_IS_COMPLETE: Missing extends never ? true : never = true

export type LabListener = (event: LabEvent) => void
