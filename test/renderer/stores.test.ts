// The Pinia stores against a fake lab: validation by path, a run's events, sessions, sweeps.
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { setLab } from '../../src/renderer/src/api'
import { holdUnload, mayDiscardWork } from '../../src/renderer/src/composables/useUnsavedGuard'
import { useExperiment, VALIDATE_DELAY_MS } from '../../src/renderer/src/stores/experiment'
import { useRun } from '../../src/renderer/src/stores/run'
import { useSessions } from '../../src/renderer/src/stores/sessions'
import { useSweep } from '../../src/renderer/src/stores/sweep'
import type { RunJobRef } from '../../src/shared/api/contract'
import type { ExperimentOutcome } from '../../src/shared/api/run-outcome'
import type { ExperimentResult } from '../../src/shared/experiment/compare'
import type { RunResult } from '../../src/shared/experiment/result'
import { ApiError } from '../../src/shared/api/errors'
import { validateSpec } from '../../src/shared/experiment/validate'
import { fakeLab } from './fake-lab'

const spec = {
  name: 'quick',
  device: { preset: 'ssd-sata-mlc' },
  workload: { processes: [{ name: 'rr', type: 'random-read', params: { count: 10 } }] },
  schedulers: ['noop', 'deadline'],
}
const job = (schedIndex: number, label: string): RunJobRef => ({ point: 0, schedIndex, repetition: 0, label })
const tick = () => new Promise((r) => setTimeout(r, 0))

/** A RunResult with just what the summary reads. */
function runResult(label: string, MBps: number): RunResult {
  const lat = { p50: 1, p90: 2, p99: 3, p999: 4, max: 5, mean: 1 }
  return {
    label,
    scheduler: label,
    source: 'simulated',
    repetition: 0,
    seconds: 10,
    processes: [{ name: 'rr', bytes: MBps * 1e7, seconds: 10, MBps, finished: true, latencyMs: lat }],
    totals: { readMBps: MBps, writeMBps: 0, readIops: 1, writeIops: 0, utilisation: 1, meanSeekSectors: 0 },
  } as unknown as RunResult
}

beforeEach(() => setActivePinia(createPinia()))
afterEach(() => {
  vi.useRealTimers()
  setLab(null)
})

describe('experiment store', () => {
  it('validates through the lab a moment after each change, and puts issues at their paths', async () => {
    vi.useFakeTimers()
    const lab = fakeLab({ validateSpec: (i) => validateSpec((i as { spec: unknown }).spec) })
    const exp = useExperiment()
    exp.load(spec)
    exp.set('schedulers[1].tunables.fifo_batch', -3)
    expect(exp.doc.schedulers[1]).toEqual({ name: 'deadline', tunables: { fifo_batch: -3 } })
    await vi.advanceTimersByTimeAsync(VALIDATE_DELAY_MS + 10)
    expect(lab.calls.filter((c) => c.method === 'validateSpec')).toHaveLength(1)
    expect(exp.issueAt('schedulers[1].tunables.fifo_batch')).toBe('expected a positive integer, got -3')
    expect(exp.ok).toBe(false)
    exp.set('schedulers[1].tunables.fifo_batch', undefined)
    expect(exp.doc.schedulers[1]).toEqual({ name: 'deadline' })
    await vi.advanceTimersByTimeAsync(VALIDATE_DELAY_MS + 10)
    expect(exp.issues).toEqual([])
    expect(exp.resolved?.schedulers.map((s) => s.label)).toEqual(['noop', 'deadline'])
    expect(exp.labels).toEqual(['noop', 'deadline'])
  })

  it('drops an answer that a newer change has overtaken', async () => {
    let answer: (v: unknown) => void = () => {}
    fakeLab({ validateSpec: () => new Promise((r) => (answer = r)) })
    const exp = useExperiment()
    const first = exp.validate()
    exp.doc.name = 'changed'
    await tick()
    answer({ ok: false, issues: [{ path: 'name', message: 'stale' }] })
    expect(await first).toBe(false)
    expect(exp.issues).toEqual([])
  })
})

describe('experiment store: the JSON tab’s edited text', () => {
  it('says where edited text does not parse, and checks text that does before it is applied', async () => {
    vi.useFakeTimers()
    fakeLab({ validateSpec: (i) => validateSpec((i as { spec: unknown }).spec) })
    const exp = useExperiment()
    exp.load(spec)
    await vi.advanceTimersByTimeAsync(VALIDATE_DELAY_MS + 10)
    expect(exp.issues).toEqual([])
    exp.setDraft('{\n  "name": "x",\n  oops\n}')
    expect(exp.draftSyntax).toMatchObject({ line: 3, column: 3, offset: 19 })
    expect(exp.draftSyntax?.message).toBe('expected a "key" in double quotes, found "o"')
    // text that parses is checked as it stands: every problem at once, the document untouched
    const bad = { ...spec, name: ' ', repetitions: 0, schedulers: ['noop', 'frob'] }
    exp.setDraft(JSON.stringify(bad, null, 2))
    expect(exp.draftSyntax).toBeNull()
    expect(exp.draftChecking).toBe(true)
    await vi.advanceTimersByTimeAsync(VALIDATE_DELAY_MS + 10)
    expect(exp.draftIssues.map((i) => i.path)).toEqual(['name', 'schedulers[1]', 'repetitions'])
    expect(exp.draftChecking).toBe(false)
    expect(exp.issues).toEqual([])
    expect(exp.doc.name).toBe('quick')
    exp.load(bad)
    expect(exp.draft).toBeNull()
    await vi.advanceTimersByTimeAsync(VALIDATE_DELAY_MS + 10)
    expect(exp.issues.map((i) => i.path)).toEqual(['name', 'schedulers[1]', 'repetitions'])
  })
})

describe('run store', () => {
  it('lays out the jobs, keeps events that beat the answer, and fills in results as they come', async () => {
    const lab: ReturnType<typeof fakeLab> = fakeLab({
      startRun: async () => {
        lab.emit({
          type: 'run:progress',
          runId: 'r1',
          job: job(0, 'noop'),
          fraction: 0.5,
          simSeconds: 1,
          etaSeconds: 2,
        })
        return { runId: 'r1', jobs: [job(0, 'noop'), job(1, 'deadline')], parallel: 2 }
      },
    })
    const run = useRun()
    expect(await run.start({ spec })).toBe(true)
    expect(run.status).toBe('running')
    expect(run.jobs.map((j) => [j.job.label, j.state, j.fraction, j.simSeconds])).toEqual([
      ['noop', 'running', 0.5, 1],
      ['deadline', 'waiting', 0, 0],
    ])
    const deadline = runResult('deadline', 40)
    lab.emit({ type: 'run:job-done', runId: 'r1', job: job(1, 'deadline'), result: deadline })
    lab.emit({ type: 'run:job-done', runId: 'other', job: job(0, 'noop'), result: runResult('noop', 1) })
    expect(run.summary.map((s) => [s.label, s.processes[0].MBps.mean])).toEqual([['deadline', 40]])
    expect(run.progress).toBeCloseTo(0.75)
    lab.emit({
      type: 'run:job-failed',
      runId: 'r1',
      job: job(0, 'noop'),
      message: 'simulation process exited with code 3',
    })
    expect(run.failures).toEqual(['noop: simulation process exited with code 3'])
    // run:done names the runs that came one by one; the store puts the result back together
    const outcome = {
      schema: 'iosched-lab/experiment@1',
      runJobs: [job(1, 'deadline')],
      summary: run.summary,
    } as unknown as ExperimentOutcome
    const runsBefore = run.runs
    lab.emit({ type: 'run:done', runId: 'r1', result: outcome, sweep: null, failures: [], wallSeconds: 1.5 })
    expect(run.status).toBe('done')
    expect(run.result).toEqual({
      schema: 'iosched-lab/experiment@1',
      summary: outcome.summary,
      runs: [deadline],
    })
    expect(run.result?.runs[0]).toBe(deadline)
    // the streamed runs (and the charts drawn from them) stay as they are
    expect(run.runs).toBe(runsBefore)
    expect(run.wallSeconds).toBe(1.5)
  })

  it('adds the rounds of a run repeated until stable to its jobs, once each', async () => {
    const lab = fakeLab({ startRun: () => ({ runId: 'r3', jobs: [job(0, 'noop')], parallel: 1 }) })
    const run = useRun()
    await run.start({ spec })
    const next = { ...job(0, 'noop'), repetition: 1 }
    lab.emit({ type: 'run:jobs-added', runId: 'r3', jobs: [next] })
    lab.emit({ type: 'run:jobs-added', runId: 'r3', jobs: [next] }) // replayed after a reconnect
    lab.emit({ type: 'run:jobs-added', runId: 'other', jobs: [{ ...next, repetition: 2 }] })
    expect(run.jobs.map((j) => [j.job.repetition, j.state])).toEqual([
      [0, 'waiting'],
      [1, 'waiting'],
    ])
    lab.emit({ type: 'run:progress', runId: 'r3', job: next, fraction: 0.5, simSeconds: 1, etaSeconds: 1 })
    expect(run.jobs[1]).toMatchObject({ state: 'running', fraction: 0.5 })
  })

  it('cancels through the lab and ends as cancelled', async () => {
    const lab = fakeLab({
      startRun: () => ({ runId: 'r2', jobs: [job(0, 'noop')], parallel: 1 }),
      cancelRun: () => true,
    })
    const run = useRun()
    await run.start({ spec })
    await run.cancel()
    expect(lab.calls.at(-1)).toEqual({ method: 'cancelRun', input: { runId: 'r2' } })
    lab.emit({ type: 'run:failed', runId: 'r2', cancelled: true, message: 'cancelled' })
    expect(run.status).toBe('cancelled')
    expect(run.running).toBe(false)
    expect(run.jobs[0].state).toBe('failed')
  })

  it('reports work the lab refuses beyond its limits, and asks with allowLarge when told to', async () => {
    const lab = fakeLab({
      startRun: async (i) =>
        (i as { allowLarge?: boolean }).allowLarge
          ? { runId: 'big', jobs: [{ ...job(0, 'noop'), maxSimSeconds: 1e7 }], parallel: 1 }
          : { problems: ['the run is refused before it starts: …', 'up to 1e12 I/O requests in one run: …'] },
    })
    const run = useRun()
    expect(await run.start({ spec })).toBe(false)
    expect(run.status).toBe('failed')
    expect(run.message).toBe('the run is refused before it starts: …\nup to 1e12 I/O requests in one run: …')
    expect(await run.start({ spec, allowLarge: true })).toBe(true)
    expect(lab.calls.filter((c) => c.method === 'startRun').map((c) => c.input)).toEqual([
      { spec },
      { spec, allowLarge: true },
    ])
    expect(run.jobs[0].job.maxSimSeconds).toBe(1e7)
  })

  it('reports a spec the lab refuses', async () => {
    fakeLab({ startRun: () => ({ issues: [{ path: 'seed', message: 'expected an integer' }] }) })
    const run = useRun()
    expect(await run.start({ spec })).toBe(false)
    expect(run.status).toBe('failed')
    expect(run.issues).toEqual([{ path: 'seed', message: 'expected an integer' }])
  })
})

describe('sessions store', () => {
  it('saves the spec with the results of a finished run, and opens a session into the stores', async () => {
    const result = {
      schema: 'iosched-lab/experiment@1',
      runs: [],
      summary: [],
    } as unknown as ExperimentResult
    const lab = fakeLab({
      saveSession: (i) => ({
        path: '/lib/mine.json',
        name: (i as { name: string }).name,
        savedAt: 'now',
        schedulers: [],
        hasResult: true,
        bytes: 1,
        revision: 4,
      }),
      listSessions: () => [],
      library: () => ({ folder: '/lib' }),
      openSession: () => ({
        schema: 'iosched-lab/session@2',
        name: 'old',
        savedAt: 'then',
        app: '1',
        revision: 7,
        spec,
        result,
        sweep: null,
      }),
    })
    const sessions = useSessions()
    const run = useRun()
    run.show(result, null)
    const info = await sessions.save('mine')
    expect(info?.path).toBe('/lib/mine.json')
    expect(lab.calls.find((c) => c.method === 'saveSession')?.input).toEqual({
      name: 'mine',
      spec: useExperiment().doc,
      result,
      sweep: null,
      notes: '',
      tags: [],
      runs: [],
    })
    expect(sessions.current).toEqual({ name: 'mine', path: '/lib/mine.json', revision: 4 })
    run.show(null, null)
    expect(await sessions.open('/lib/old.json')).toBe(true)
    expect(useExperiment().doc.name).toBe('quick')
    expect(run.result).toBe(result)
    expect(run.status).toBe('done')
    expect(sessions.current).toEqual({ name: 'old', path: '/lib/old.json', revision: 7 })
  })

  it('replaces a file only when told to: a refusal is kept as the conflict to ask about', async () => {
    const there = new Set(['/lib/disk-a.json'])
    let revision = 1
    const lab = fakeLab({
      saveSession: (input) => {
        const i = input as { name: string; path?: string; replace?: boolean | { revision: number } }
        const path = i.path ?? `/lib/${i.name.toLowerCase().replace(/\W+/g, '-')}.json`
        if (there.has(path) && (i.replace === undefined || i.replace === false))
          throw new ApiError('conflict', `${path}: a session file is there already`)
        if (typeof i.replace === 'object' && i.replace.revision !== revision)
          throw new ApiError('conflict', `${path}: the session was changed since it was opened here`)
        there.add(path)
        return {
          path,
          name: i.name,
          savedAt: 'now',
          schedulers: [],
          hasResult: false,
          bytes: 1,
          revision: ++revision,
        }
      },
      listSessions: () => [],
      library: () => ({ folder: '/lib' }),
    })
    const sessions = useSessions()
    expect(await sessions.save('Disk A')).toBeNull()
    expect(sessions.conflict).toEqual({
      message: '/lib/disk-a.json: a session file is there already',
      name: 'Disk A',
    })
    expect(sessions.current).toBeNull()
    const saved = await sessions.save('Disk A', undefined, undefined, true)
    expect(saved?.path).toBe('/lib/disk-a.json')
    expect(sessions.conflict).toBeNull()
    expect(sessions.current).toEqual({ name: 'Disk A', path: '/lib/disk-a.json', revision: 2 })
    // Ctrl+S: the session as last saved here, no further
    expect(await sessions.saveCurrent()).not.toBeNull()
    const sent = lab.calls
      .filter((c) => c.method === 'saveSession')
      .map((c) => (c.input as { replace?: unknown }).replace)
    expect(sent).toEqual([undefined, true, { revision: 2 }])
    revision = 10 // another writer saved it meanwhile
    expect(await sessions.saveCurrent()).toBeNull()
    expect(sessions.conflict?.message).toContain('changed since it was opened here')
    expect(sessions.current?.revision).toBe(3)
  })

  it('knows when the work is unsaved: edits, results, imported runs, notes — until saved or opened', async () => {
    const result = {
      schema: 'iosched-lab/experiment@1',
      runs: [],
      summary: [],
    } as unknown as ExperimentResult
    fakeLab({
      saveSession: (i) => ({
        path: '/lib/s.json',
        name: (i as { name: string }).name,
        tags: ['t'],
        revision: 1,
      }),
      listSessions: () => [],
      library: () => ({ folder: '/lib' }),
      openSession: () => ({ schema: 'iosched-lab/session@2', name: 's', spec, result: null, sweep: null }),
    })
    const sessions = useSessions()
    const exp = useExperiment()
    const run = useRun()
    expect(sessions.unsaved).toBe(false)
    exp.load(spec)
    sessions.reset() // new work, as the gallery starts it
    expect(sessions.unsaved).toBe(false)
    exp.doc.name = 'edited'
    expect(sessions.unsaved).toBe(true)
    exp.doc.name = 'quick' // undone: nothing to lose
    expect(sessions.unsaved).toBe(false)
    run.show(result, null)
    expect(sessions.unsaved).toBe(true)
    await sessions.save('s', undefined, { notes: 'n', tags: [' t'] })
    expect(sessions.unsaved).toBe(false) // (the tags as the lab cleaned them)
    sessions.addRuns([runResult('fio', 1)])
    expect(sessions.unsaved).toBe(true)
    expect(await sessions.open('/lib/s.json')).toBe(true)
    expect(sessions.unsaved).toBe(false)
    sessions.notes = 'more'
    expect(sessions.unsaved).toBe(true)
    // asked before the work is replaced, and replaced only when told to
    expect(mayDiscardWork(() => false)).toBe(false)
    expect(mayDiscardWork(() => true)).toBe(true)
    sessions.notes = ''
    expect(mayDiscardWork(() => false)).toBe(true) // nothing unsaved: not even asked
  })

  it('holds a reload or close only while there is unsaved work', () => {
    const e = { preventDefault: vi.fn(), returnValue: undefined as unknown }
    expect(holdUnload(e, false)).toBe(false)
    expect(e.preventDefault).not.toHaveBeenCalled()
    expect(holdUnload(e, true)).toBe(true)
    expect(e.preventDefault).toHaveBeenCalled()
    expect(e.returnValue).toBe(true)
  })

  it('keeps the error of a failed open', async () => {
    fakeLab({
      openSession: () => {
        throw new Error('x.json: no such file')
      },
    })
    const sessions = useSessions()
    expect(await sessions.open('x.json')).toBe(false)
    expect(sessions.error).toContain('no such file')
  })
})

describe('sweep store', () => {
  it('makes values from a range, a list, or an enum', () => {
    const sweep = useSweep()
    expect(sweep.problem).toBe('Choose a parameter to vary.')
    sweep.choose('schedulers[1].tunables.fifo_batch', {
      name: 'fifo_batch',
      kind: 'int',
      default: 16,
      unit: 'requests',
      meaning: '',
      min: 1,
      max: 10000,
    })
    expect([sweep.from, sweep.to]).toEqual(['4', '64'])
    sweep.steps = 4
    expect(sweep.values).toEqual([4, 24, 44, 64])
    sweep.list = '1, 2, x'
    expect(sweep.values).toEqual([1, 2, 'x'])
    expect(sweep.spec()).toEqual({ path: 'schedulers[1].tunables.fifo_batch', values: [1, 2, 'x'] })
    sweep.choose('host.overrides.cpuPolicy', {
      name: 'cpuPolicy',
      kind: 'enum',
      default: 'a',
      unit: '',
      meaning: '',
      values: ['a', 'b'],
    })
    expect(sweep.values).toEqual(['a', 'b'])
    sweep.choose('x.y', { name: 'y', kind: 'bool', default: false, unit: '', meaning: '' })
    expect(sweep.values).toEqual([false, true])
  })
})
