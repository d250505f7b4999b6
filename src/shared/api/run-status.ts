// The state of a run as a client that lost its events (a dropped WebSocket) recovers it: the run's
// start and its events so far, compacted, to replay into the same handlers that read live events.
import type { RunStarted } from './contract'
import type { LabEvent } from './lab-events'

export type RunState = 'running' | 'done' | 'failed' | 'cancelled' | 'unknown'

export interface RunStatusReport {
  runId: string
  /** `unknown`: no such run here (never started, or forgotten long ago). */
  state: RunState
  started: RunStarted | null
  /**
   * Every event of the run that still matters, in order: the latest progress of each job, each
   * job's result or failure, notices, and the final done or failed event.
   */
  events: LabEvent[]
}
