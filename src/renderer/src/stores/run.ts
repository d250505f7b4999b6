// The current run: its jobs and their progress, results as they arrive, then the experiment's
// result (or the sweep's). Large results are kept shallow: they are read, never edited.
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { RunJobRef, StartRunInput, SweepResult } from '../../../shared/api/contract'
import type { LabEvent } from '../../../shared/api/lab-events'
import { summarizeRuns } from '../../../shared/experiment/compare'
import type { ExperimentResult, LabelSummary } from '../../../shared/experiment/compare'
import type { RunResult } from '../../../shared/experiment/result'
import type { ParamIssue } from '../../../shared/util/params'
import { errorText, useLab } from '../api'

export type RunStatus = 'idle' | 'starting' | 'running' | 'done' | 'failed' | 'cancelled'

export interface JobState {
  job: RunJobRef
  fraction: number
  etaSeconds: number | null
  state: 'waiting' | 'running' | 'done' | 'failed'
  message?: string
}

export const jobKey = (j: { point: number; schedIndex: number; repetition: number }): string =>
  `${j.point}:${j.schedIndex}:${j.repetition}`

export const useRun = defineStore('run', () => {
  const status = ref<RunStatus>('idle')
  const runId = ref<string | null>(null)
  const mode = ref<'experiment' | 'sweep'>('experiment')
  const jobs = ref<JobState[]>([])
  const runs = shallowRef<RunResult[]>([])
  const result = shallowRef<ExperimentResult | null>(null)
  const sweep = shallowRef<SweepResult | null>(null)
  const failures = ref<string[]>([])
  const message = ref('')
  const issues = ref<ParamIssue[]>([])
  const startedAt = ref(0)
  const wallSeconds = ref(0)
  /** Events that arrive while startRun is still answering (its runId unknown yet). */
  let early: LabEvent[] = []
  let unsubscribe: (() => void) | null = null

  const index = computed(() => new Map(jobs.value.map((j, i) => [jobKey(j.job), i])))
  const running = computed(() => status.value === 'starting' || status.value === 'running')

  function listen(): void {
    unsubscribe ??= useLab().onEvent(onEvent)
  }

  function onEvent(e: LabEvent): void {
    if (status.value === 'starting') return void early.push(e)
    if (e.runId !== runId.value) return
    const i = 'job' in e ? index.value.get(jobKey(e.job)) : undefined
    const job = i === undefined ? undefined : jobs.value[i]
    switch (e.type) {
      case 'run:progress':
        if (job && job.state !== 'done')
          Object.assign(job, { fraction: e.fraction, etaSeconds: e.etaSeconds, state: 'running' })
        break
      case 'run:job-done':
        if (job) Object.assign(job, { fraction: 1, etaSeconds: 0, state: 'done' })
        if (e.job.point === 0) runs.value = [...runs.value, e.result]
        break
      case 'run:job-failed':
        if (job) Object.assign(job, { state: 'failed', message: e.message })
        failures.value.push(
          `${e.job.label}${e.job.repetition ? ` #${e.job.repetition + 1}` : ''}: ${e.message}`,
        )
        break
      case 'run:done':
        result.value = e.result
        sweep.value = e.sweep
        // The runs streamed in already; keep that array (and the charts drawn from it) when complete.
        if (e.result.runs.length !== runs.value.length) runs.value = e.result.runs
        wallSeconds.value = e.wallSeconds
        status.value = 'done'
        break
      case 'run:failed':
        status.value = e.cancelled ? 'cancelled' : 'failed'
        message.value = e.cancelled ? 'Cancelled.' : e.message
        for (const j of jobs.value) if (j.state === 'waiting' || j.state === 'running') j.state = 'failed'
        break
    }
  }

  /** Start a run; answers false (with issues) when the spec does not validate. */
  async function start(input: StartRunInput): Promise<boolean> {
    if (running.value) return false
    listen()
    reset()
    mode.value = input.sweep ? 'sweep' : 'experiment'
    status.value = 'starting'
    startedAt.value = Date.now()
    early = []
    try {
      const r = await useLab().startRun(input)
      if ('issues' in r) {
        issues.value = r.issues
        status.value = 'failed'
        message.value = 'The spec has problems: fix them in the setup.'
        return false
      }
      runId.value = r.runId
      jobs.value = r.jobs.map((job) => ({ job, fraction: 0, etaSeconds: null, state: 'waiting' }))
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

  function reset(): void {
    runId.value = null
    jobs.value = []
    runs.value = []
    result.value = null
    sweep.value = null
    failures.value = []
    message.value = ''
    issues.value = []
    wallSeconds.value = 0
    status.value = 'idle'
  }

  /** Show results saved in a session. */
  function show(r: ExperimentResult | null, s: SweepResult | null): void {
    reset()
    result.value = r
    sweep.value = s
    runs.value = r?.runs ?? []
    mode.value = s ? 'sweep' : 'experiment'
    status.value = r || s ? 'done' : 'idle'
  }

  /** Summary rows of the runs so far (the final summary once done). */
  const summary = computed<LabelSummary[]>(() => result.value?.summary ?? summarizeRuns(runs.value))
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
    message,
    issues,
    startedAt,
    wallSeconds,
    running,
    summary,
    progress,
    listen,
    start,
    cancel,
    show,
    onEvent,
  }
})
