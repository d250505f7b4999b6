// The run store with real runs and after a dropped event channel: "deadline (real)" jobs beside
// simulated ones, problems that stop a real run, notices, and a run recovered with runStatus.
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import { orderedLabels, shownLabel } from '../../src/renderer/src/lib/labels'
import { useRun } from '../../src/renderer/src/stores/run'
import type { RunJobRef, RunStarted } from '../../src/shared/api/contract'
import type { LabEvent } from '../../src/shared/api/lab-events'
import type { RunStatusReport } from '../../src/shared/api/run-status'
import type { ExperimentOutcome } from '../../src/shared/api/run-outcome'
import { summarizeRuns } from '../../src/shared/experiment/compare'
import type { RunResult } from '../../src/shared/experiment/result'
import { fakeLab } from './fake-lab'

const tick = () => new Promise((r) => setTimeout(r, 0))
const sim: RunJobRef = { point: 0, schedIndex: 0, repetition: 0, label: 'deadline' }
const real: RunJobRef = { ...sim, source: 'real' }
const started: RunStarted = { runId: 'r1', jobs: [sim, real], parallel: 1 }

function runResult(source: 'simulated' | 'real', MBps: number): RunResult {
  const lat = { p50: 1, p90: 2, p99: 3, p999: 4, max: 5, mean: 1 }
  return {
    label: 'deadline',
    scheduler: 'deadline',
    source,
    repetition: 0,
    seconds: 10,
    processes: [{ name: 'rr', bytes: MBps * 1e7, seconds: 10, MBps, finished: true, latencyMs: lat }],
    totals: { readMBps: MBps, writeMBps: 0, readIops: 1, writeIops: 0, utilisation: 1, meanSeekSectors: 0 },
  } as unknown as RunResult
}
const a = runResult('simulated', 10)
const b = runResult('real', 7)
/** The combined result as run:done carries it: its runs named, not sent again. */
const outcome = {
  schema: 'iosched-lab/experiment@1',
  name: 'quick',
  spec: { schedulers: [{ name: 'deadline', label: 'deadline', tunables: {} }] },
  runJobs: [sim, real],
  summary: summarizeRuns([a, b]),
} as unknown as ExperimentOutcome
const done: LabEvent = {
  type: 'run:done',
  runId: 'r1',
  result: outcome,
  sweep: null,
  failures: [],
  wallSeconds: 4,
}
const doneA: LabEvent = { type: 'run:job-done', runId: 'r1', job: sim, result: a }
const doneB: LabEvent = { type: 'run:job-done', runId: 'r1', job: real, result: b }

beforeEach(() => setActivePinia(createPinia()))

describe('real runs in the run store', () => {
  it('names real rows "(real)", in the spec’s order beside the simulated ones', () => {
    expect(shownLabel(real)).toBe('deadline (real)')
    expect(shownLabel(sim)).toBe('deadline')
    expect(orderedLabels(['noop', 'deadline'], [sim, real, { label: 'noop', source: 'real' }])).toEqual([
      'noop (real)',
      'deadline',
      'deadline (real)',
    ])
    expect(summarizeRuns([a, b]).map(shownLabel)).toEqual(['deadline', 'deadline (real)'])
  })

  it('starts a real run: jobs of both kinds, notices, then the combined result', async () => {
    const lab = fakeLab({ startRealRun: () => started })
    const run = useRun()
    expect(await run.startReal({ spec: {}, target: { kind: 'scratch' } })).toBe(true)
    expect(run.jobs.map((j) => shownLabel(j.job))).toEqual(['deadline', 'deadline (real)'])
    lab.emit({ type: 'run:notice', runId: 'r1', message: 'cfq does not run for real' })
    lab.emit(doneA)
    lab.emit({ type: 'run:progress', runId: 'r1', job: real, fraction: 0.5, simSeconds: 1, etaSeconds: 1 })
    expect(run.jobs.map((j) => j.state)).toEqual(['done', 'running'])
    lab.emit(doneB)
    lab.emit(done)
    expect(run.status).toBe('done')
    expect(run.notices).toEqual(['cfq does not run for real'])
    expect(run.runs).toHaveLength(2)
    expect(run.summary.map(shownLabel)).toEqual(['deadline', 'deadline (real)'])
    // what a saved session gets: the whole result, every run in the outcome's order
    expect(run.result?.runs).toEqual([a, b])
    expect(run.result?.spec).toBe(outcome.spec)
  })

  it('shows what stops a real run, without starting anything', async () => {
    fakeLab({
      startRealRun: () => ({ problems: ['real device tests need root: …', 'fio is not installed'] }),
    })
    const run = useRun()
    expect(await run.startReal({ spec: {}, target: { kind: 'scratch' } })).toBe(false)
    expect(run.status).toBe('failed')
    expect(run.message).toBe('real device tests need root: …\nfio is not installed')
  })
})

describe('a run recovered after the event channel dropped', () => {
  const withStatus = (s: RunStatusReport) => fakeLab({ startRealRun: () => started, runStatus: () => s })

  it('rebuilds a run that finished meanwhile', async () => {
    const lab = withStatus({ runId: 'r1', state: 'done', started, events: [doneA, doneB, done] })
    const run = useRun()
    await run.startReal({ spec: {}, target: { kind: 'scratch' } })
    lab.emit({ type: 'run:progress', runId: 'r1', job: sim, fraction: 0.2, simSeconds: 1, etaSeconds: 3 })
    // …the socket drops; the rest of the run's events are lost, then it comes back
    lab.reconnect()
    await tick()
    expect(lab.calls.at(-1)).toEqual({ method: 'runStatus', input: { runId: 'r1' } })
    expect(run.status).toBe('done')
    expect(run.runs).toHaveLength(2)
    expect(run.result?.runs).toEqual([a, b])
    expect(run.wallSeconds).toBe(4)
  })

  it('asks the lab for a result that run:done names but that never came', async () => {
    const lab = withStatus({ runId: 'r1', state: 'done', started, events: [doneA, doneB, done] })
    const run = useRun()
    await run.startReal({ spec: {}, target: { kind: 'scratch' } })
    lab.emit(doneA)
    // the real run's result was lost on the way (no reconnect was noticed)
    lab.emit(done)
    expect(run.status).toBe('running')
    await tick()
    expect(lab.calls.at(-1)).toEqual({ method: 'runStatus', input: { runId: 'r1' } })
    expect(run.status).toBe('done')
    expect(run.result?.runs).toEqual([a, b])
    expect(run.failures).toEqual([])
  })

  it('says which results never came when the lab has lost them too', async () => {
    const lab = withStatus({ runId: 'r1', state: 'done', started, events: [doneA, done] })
    const run = useRun()
    await run.startReal({ spec: {}, target: { kind: 'scratch' } })
    lab.emit(doneA)
    lab.emit(done)
    await tick()
    expect(run.status).toBe('done')
    expect(run.result?.runs).toEqual([a])
    expect(run.failures).toEqual(['deadline: its result did not arrive'])
  })

  it('catches up with a run still going, and ignores a result it then hears twice', async () => {
    const events: LabEvent[] = [
      doneA,
      { type: 'run:progress', runId: 'r1', job: real, fraction: 0.6, simSeconds: 2, etaSeconds: 1 },
    ]
    const lab = withStatus({ runId: 'r1', state: 'running', started, events })
    const run = useRun()
    await run.startReal({ spec: {}, target: { kind: 'scratch' } })
    lab.reconnect()
    await tick()
    expect(run.status).toBe('running')
    expect(run.jobs.map((j) => [j.state, j.fraction])).toEqual([
      ['done', 1],
      ['running', 0.6],
    ])
    expect(run.runs).toHaveLength(1)
    lab.emit(doneA)
    expect(run.runs).toHaveLength(1)
  })

  it('says so when the lab no longer knows the run', async () => {
    const lab = withStatus({ runId: 'r1', state: 'unknown', started: null, events: [] })
    const run = useRun()
    await run.startReal({ spec: {}, target: { kind: 'scratch' } })
    lab.reconnect()
    await tick()
    expect(run.status).toBe('failed')
    expect(run.message).toContain('no longer knows this run')
  })
})
