// What `runStatus` answers: every run's start and the events that still matter, kept while it runs
// and for a while after, so a client whose WebSocket dropped can rebuild the run's state by
// replaying them (latest progress per job, results, failures, notices, the outcome).
import type { RunStarted } from '../../shared/api/contract'
import type { LabEvent } from '../../shared/api/lab-events'
import type { RunState, RunStatusReport } from '../../shared/api/run-status'

interface Entry {
  started: RunStarted | null
  state: RunState
  /** Events in arrival order; a job's progress replaces its previous progress. */
  events: LabEvent[]
  progressAt: Map<string, number>
}

const jobKey = (e: {
  job: { point: number; schedIndex: number; repetition: number; source?: string }
}): string => `${e.job.source ?? 'sim'}:${e.job.point}:${e.job.schedIndex}:${e.job.repetition}`

export class RunLedger {
  private readonly runs = new Map<string, Entry>()

  /** How many finished runs to remember (their results can be large). */
  constructor(private readonly keepFinished = 4) {}

  /** A run (or a fingerprint, a validation or a reproduction, with `started` null) has begun. */
  begin(runId: string, started: RunStarted | null): void {
    this.runs.set(runId, { started, state: 'running', events: [], progressAt: new Map() })
  }

  /** Note an event of any run (events of runs not begun here are ignored). */
  record(e: LabEvent): void {
    const r = this.runs.get(e.runId)
    if (!r) return
    if (
      e.type === 'run:progress' ||
      e.type === 'fingerprint:progress' ||
      e.type === 'validate:progress' ||
      e.type === 'reproduce:progress'
    ) {
      const key = e.type === 'run:progress' ? jobKey(e) : e.type
      const at = r.progressAt.get(key)
      if (at !== undefined) r.events[at] = e
      else {
        r.progressAt.set(key, r.events.length)
        r.events.push(e)
      }
      return
    }
    if (
      e.type === 'run:done' ||
      e.type === 'fingerprint:done' ||
      e.type === 'validate:done' ||
      e.type === 'reproduce:done'
    ) {
      r.state = 'done'
      // progress is over; the per-job results stay: run:done only names them (run-outcome.ts)
      r.events = r.events.filter((x) => x.type !== 'run:progress')
      r.progressAt.clear()
    } else if (
      e.type === 'run:failed' ||
      e.type === 'fingerprint:failed' ||
      e.type === 'validate:failed' ||
      e.type === 'reproduce:failed'
    )
      r.state = e.cancelled ? 'cancelled' : 'failed'
    r.events.push(e)
    if (r.state !== 'running') this.forgetOld()
  }

  status(runId: string): RunStatusReport {
    const r = this.runs.get(runId)
    if (!r) return { runId, state: 'unknown', started: null, events: [] }
    return { runId, state: r.state, started: r.started, events: [...r.events] }
  }

  private forgetOld(): void {
    const finished = [...this.runs].filter(([, r]) => r.state !== 'running')
    for (const [id] of finished.slice(0, Math.max(0, finished.length - this.keepFinished)))
      this.runs.delete(id)
  }
}
