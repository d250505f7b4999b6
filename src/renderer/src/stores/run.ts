// The current run: its jobs and their progress, results as they arrive, then the experiment's
// result (or the sweep's), put together from those results (run:done only names them). The last
// comparison and the last sweep are kept side by side: a sweep does not drop the comparison, nor a
// comparison the sweep, and a session holding both shows both. Large results are kept shallow:
// they are read, never edited.
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { RunJobRef, RunStarted, StartRunInput, SweepResult } from '../../../shared/api/contract'
import type { RealRunInput } from '../../../shared/api/real-contract'
import type { LabEvent, RunDoneEvent } from '../../../shared/api/lab-events'
import { outcomeKey, resultOf, sweepResultOf } from '../../../shared/api/run-outcome'
import { currentSummary, summarizeRuns } from '../../../shared/experiment/compare'
import type { ExperimentResult, LabelSummary } from '../../../shared/experiment/compare'
import type { RunResult } from '../../../shared/experiment/result'
import type { ParamIssue } from '../../../shared/util/params'
import { errorText, useLab } from '../api'

export type RunStatus = 'idle' | 'starting' | 'running' | 'done' | 'failed' | 'cancelled'

export interface JobState {
  job: RunJobRef
  fraction: number
  etaSeconds: number | null
  /** Simulated time reached, s (against `job.maxSimSeconds`, the run's bound). */
  simSeconds: number
  state: 'waiting' | 'running' | 'done' | 'failed'
  message?: string
  /** A real run before fio's first progress: what it is doing (preparing, dropping caches …). */
  phase?: string
  /** When the page saw the job start and end (Date.now()): the measured pace of real runs. */
  startedMs?: number
  endedMs?: number
}

export const jobKey = (j: {
  point: number
  schedIndex: number
  repetition: number
  source?: string
}): string => `${j.point}:${j.schedIndex}:${j.repetition}${j.source === 'real' ? ':real' : ''}`

export const useRun = defineStore('run', () => {
  const status = ref<RunStatus>('idle')
  const runId = ref<string | null>(null)
  const mode = ref<'experiment' | 'sweep'>('experiment')
  const jobs = ref<JobState[]>([])
  /** The comparison's runs, as they arrive (then those of its result). */
  const runs = shallowRef<RunResult[]>([])
  /** The last comparison, complete (null while one runs). */
  const result = shallowRef<ExperimentResult | null>(null)
  /** The last sweep, complete (null while one runs). */
  const sweep = shallowRef<SweepResult | null>(null)
  const failures = ref<string[]>([])
  /** What a real run said on the way (warnings, repairs, entries the kernel lacks, fio notes). */
  const notices = ref<string[]>([])
  const message = ref('')
  const issues = ref<ParamIssue[]>([])
  const startedAt = ref(0)
  const wallSeconds = ref(0)
  /** Events that arrive while startRun is still answering (its runId unknown yet). */
  let early: LabEvent[] = []
  /** Every result of this run so far, by job (outcomeKey), sweep points included: run:done names them. */
  const received = new Map<string, RunResult>()
  /** Replaying the lab's record of the run (recover): what is missing then stays missing. */
  let replaying = false
  let unsubscribe: (() => void) | null = null

  const index = computed(() => new Map(jobs.value.map((j, i) => [jobKey(j.job), i])))
  const running = computed(() => status.value === 'starting' || status.value === 'running')

  function listen(): void {
    if (unsubscribe) return
    unsubscribe = useLab().onEvent(onEvent)
    useLab().onReconnect(() => void recover())
  }

  /**
   * Catch up after the event channel dropped: ask the lab for the run's state and rebuild it from
   * the run's start and its events so far (replayed through onEvent), so it does not look stuck.
   */
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
    if (s.state === 'unknown' || !s.started) {
      status.value = 'failed'
      message.value = 'The lab no longer knows this run (was it restarted?).'
      for (const j of jobs.value) if (j.state !== 'done') j.state = 'failed'
      return
    }
    jobs.value = s.started.jobs.map((job) => ({
      job,
      fraction: 0,
      etaSeconds: null,
      simSeconds: 0,
      state: 'waiting',
    }))
    if (mode.value === 'experiment') runs.value = []
    failures.value = []
    received.clear()
    replaying = true
    try {
      for (const e of s.events) onEvent(e)
    } finally {
      replaying = false
    }
  }

  /**
   * The run is over: its result (and sweep) put together from the results that came one by one.
   * Should some not have come (a dropped channel), the lab's record of the run is asked first; what
   * it lacks too is left out, and said.
   */
  function finish(e: RunDoneEvent, askLab = !replaying): void {
    const r = resultOf(e.result, received)
    const sw = e.sweep ? sweepResultOf(e.sweep, received) : null
    const missing = [...r.missing, ...(sw?.missing ?? [])]
    if (missing.length && askLab) {
      const id = runId.value
      return void recover().then(() => {
        if (id === runId.value && status.value === 'running') finish(e, false)
      })
    }
    for (const j of missing)
      failures.value.push(
        `${j.label}${j.repetition ? ` #${j.repetition + 1}` : ''}: its result did not arrive`,
      )
    if (mode.value === 'sweep') sweep.value = sw?.result ?? null
    else {
      result.value = r.result
      // The runs streamed in already; keep that array (and the charts drawn from it) when complete.
      if (r.result.runs.length !== runs.value.length) runs.value = r.result.runs
    }
    wallSeconds.value = e.wallSeconds
    status.value = 'done'
  }

  function onEvent(e: LabEvent): void {
    if (status.value === 'starting') return void early.push(e)
    if (e.runId !== runId.value) return
    const i = 'job' in e ? index.value.get(jobKey(e.job)) : undefined
    const job = i === undefined ? undefined : jobs.value[i]
    switch (e.type) {
      case 'run:progress':
        if (job && job.state !== 'done') {
          Object.assign(job, {
            fraction: e.fraction,
            etaSeconds: e.etaSeconds,
            simSeconds: e.simSeconds,
            state: 'running',
            phase: e.phase,
          })
          // replayed events have no times of their own: the pace is the live one's
          if (!replaying) job.startedMs ??= Date.now()
        }
        break
      case 'run:job-done':
        if (job?.state === 'done') break // seen already (replayed by recover)
        if (job) Object.assign(job, { fraction: 1, etaSeconds: 0, state: 'done', phase: undefined })
        if (job && !replaying) job.endedMs = Date.now()
        received.set(outcomeKey(e.job), e.result)
        if (mode.value === 'experiment') runs.value = [...runs.value, e.result]
        break
      case 'run:job-failed':
        if (job?.state === 'failed') break
        if (job) Object.assign(job, { state: 'failed', message: e.message })
        failures.value.push(
          `${e.job.label}${e.job.repetition ? ` #${e.job.repetition + 1}` : ''}: ${e.message}`,
        )
        break
      case 'run:jobs-added':
        // repeating until stable: another round (seen already when replayed by recover)
        for (const j of e.jobs)
          if (!index.value.has(jobKey(j)))
            jobs.value.push({ job: j, fraction: 0, etaSeconds: null, simSeconds: 0, state: 'waiting' })
        break
      case 'run:done':
        finish(e)
        break
      case 'run:notice':
        if (!notices.value.includes(e.message)) notices.value.push(e.message)
        break
      case 'run:failed':
        status.value = e.cancelled ? 'cancelled' : 'failed'
        message.value = e.cancelled ? 'Cancelled.' : e.message
        for (const j of jobs.value)
          if (j.state === 'waiting' || j.state === 'running')
            Object.assign(j, { state: 'failed', phase: undefined })
        break
    }
  }

  /** Start a run; answers false (with issues) when the spec does not validate. */
  function start(input: StartRunInput): Promise<boolean> {
    return begin(input.sweep ? 'sweep' : 'experiment', () => useLab().startRun(input))
  }

  /** Run the spec for real (fio on a device), beside its simulation unless asked not to. */
  function startReal(input: RealRunInput): Promise<boolean> {
    return begin('experiment', () => useLab().startRealRun(input))
  }

  async function begin(
    kind: 'experiment' | 'sweep',
    call: () => Promise<RunStarted | { issues: ParamIssue[] } | { problems: string[] }>,
  ): Promise<boolean> {
    if (running.value) return false
    listen()
    resetRun()
    // the new run replaces the last one of its kind; the other kind's result stays
    if (kind === 'experiment') {
      result.value = null
      runs.value = []
    } else sweep.value = null
    mode.value = kind
    status.value = 'starting'
    startedAt.value = Date.now()
    early = []
    try {
      const r = await call()
      if ('issues' in r) {
        issues.value = r.issues
        status.value = 'failed'
        message.value = 'The spec has problems: fix them in the setup.'
        return false
      }
      if ('problems' in r) {
        status.value = 'failed'
        message.value = r.problems.join('\n')
        return false
      }
      runId.value = r.runId
      jobs.value = r.jobs.map((job) => ({
        job,
        fraction: 0,
        etaSeconds: null,
        simSeconds: 0,
        state: 'waiting',
      }))
      status.value = 'running'
      for (const e of early.splice(0)) onEvent(e)
      return true
    } catch (e) {
      status.value = 'failed'
      message.value = errorText(e)
      return false
    }
  }

  async function cancel(): Promise<void> {
    if (status.value !== 'running' || !runId.value) return
    await useLab().cancelRun({ runId: runId.value })
  }

  /** Forget the current run (its jobs, messages, what arrived), not the results kept. */
  function resetRun(): void {
    runId.value = null
    received.clear()
    jobs.value = []
    failures.value = []
    notices.value = []
    message.value = ''
    issues.value = []
    wallSeconds.value = 0
    status.value = 'idle'
  }

  /** Show results saved in a session: its comparison and its sweep, either or both. */
  function show(r: ExperimentResult | null, s: SweepResult | null): void {
    resetRun()
    result.value = r
    sweep.value = s
    runs.value = r?.runs ?? []
    mode.value = s && !r ? 'sweep' : 'experiment'
    status.value = r || s ? 'done' : 'idle'
  }

  /** Summary rows of the runs so far (the final summary once done). */
  const summary = computed<LabelSummary[]>(() =>
    result.value ? currentSummary(result.value) : summarizeRuns(runs.value),
  )
  /** Overall progress, 0 … 1. */
  const progress = computed(() =>
    jobs.value.length
      ? jobs.value.reduce((a, j) => a + (j.state === 'failed' ? 1 : j.fraction), 0) / jobs.value.length
      : 0,
  )

  return {
    status,
    runId,
    mode,
    jobs,
    runs,
    result,
    sweep,
    failures,
    notices,
    message,
    issues,
    startedAt,
    wallSeconds,
    running,
    summary,
    progress,
    listen,
    start,
    startReal,
    cancel,
    show,
    onEvent,
    recover,
  }
})
