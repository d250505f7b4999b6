// A long job of the lab that the app starts and follows by its events — a fingerprint, a
// validation, a gallery reproduction: its status, id and message; the events that arrive while
// the lab is still answering the start (kept, then handled); the job's own events handed to the
// store; a dropped event channel caught up through runStatus; cancel through cancelRun.
import { computed, ref } from 'vue'
import type { LabEvent } from '../../../shared/api/lab-events'
import { errorText, useLab } from '../api'

export type JobStatus = 'idle' | 'starting' | 'running' | 'done' | 'failed' | 'cancelled'

export interface LongJobOptions {
  /** One of this job's events, while it runs. */
  event(e: LabEvent): void
  /** The job as the user knows it, for "The lab no longer knows this …". */
  what: string
  /** What a cancel did, said when it ended the job. */
  cancelled: string
}

/** The part every long-job store shares; call inside a setup store. */
export function longJob(o: LongJobOptions) {
  const status = ref<JobStatus>('idle')
  const runId = ref<string | null>(null)
  const message = ref('')
  const busy = computed(() => status.value === 'starting' || status.value === 'running')
  let unsubscribe: (() => void) | null = null
  /** Events that arrive while the start is still answering. */
  let early: LabEvent[] = []

  function onEvent(e: LabEvent): void {
    if (status.value === 'starting') return void early.push(e)
    if (e.runId !== runId.value || status.value !== 'running') return
    o.event(e)
  }

  /** The job's end as its failed event says it: cancelled, or failed with why. */
  function ended(e: { cancelled: boolean; message: string }): void {
    status.value = e.cancelled ? 'cancelled' : 'failed'
    message.value = e.cancelled ? o.cancelled : e.message
  }

  /** After the event channel dropped: replay what the lab kept of the job. */
  async function recover(): Promise<void> {
    const id = runId.value
    if (!id || status.value !== 'running') return
    let s
    try {
      s = await useLab().runStatus({ runId: id })
    } catch {
      return // still unreachable: the next reconnect tries again
    }
    if (id !== runId.value || status.value !== 'running') return
    if (s.state === 'unknown') {
      status.value = 'failed'
      message.value = `The lab no longer knows this ${o.what} (was it restarted?).`
      return
    }
    for (const e of s.events) onEvent(e)
  }

  /**
   * Start the job with `call` (the store has reset its own figures): listening first, the events
   * that come before the answer kept for after it; `started` sees the answer.
   */
  async function start<R extends { runId: string }>(
    call: () => Promise<R | { problems: string[] }>,
    started?: (r: R) => void,
  ): Promise<void> {
    if (!unsubscribe) {
      unsubscribe = useLab().onEvent(onEvent)
      useLab().onReconnect(() => void recover())
    }
    status.value = 'starting'
    early = []
    message.value = ''
    try {
      const r = await call()
      if ('problems' in r) {
        status.value = 'failed'
        message.value = r.problems.join('\n')
        return
      }
      runId.value = r.runId
      started?.(r)
      status.value = 'running'
      for (const e of early.splice(0)) onEvent(e)
    } catch (e) {
      status.value = 'failed'
      message.value = errorText(e)
    }
  }

  async function cancel(): Promise<void> {
    if (status.value === 'running' && runId.value) await useLab().cancelRun({ runId: runId.value })
  }

  return { status, runId, message, busy, onEvent, ended, recover, start, cancel }
}
