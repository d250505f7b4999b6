// runStatus: a run's start and its events so far, compacted, for a client that lost its events.
import { afterEach, describe, expect, it } from 'vitest'
import type { RunJobRef, RunStarted } from '../../src/shared/api/contract'
import type { LabService } from '../../src/main/services/lab-service'
import { RunLedger } from '../../src/main/services/run-ledger'
import { newService, quickSpec, recorder } from './fixtures'

const job = (schedIndex: number, source?: 'real'): RunJobRef => ({
  point: 0,
  schedIndex,
  repetition: 0,
  label: `s${schedIndex}`,
  ...(source ? { source } : {}),
})
const started: RunStarted = { runId: 'r', jobs: [job(0), job(0, 'real')], parallel: 1 }
const progress = (j: RunJobRef, fraction: number) =>
  ({ type: 'run:progress', runId: 'r', job: j, fraction, simSeconds: 0, etaSeconds: null }) as const

describe('the run ledger', () => {
  it('keeps the latest progress of each job, results, notices and the outcome, in order', () => {
    const l = new RunLedger()
    l.begin('r', started)
    l.record(progress(job(0), 0.1))
    l.record(progress(job(0, 'real'), 0.2))
    l.record(progress(job(0), 0.5))
    l.record({ type: 'run:notice', runId: 'r', message: 'hello' })
    l.record({
      type: 'run:progress',
      runId: 'other',
      job: job(0),
      fraction: 1,
      simSeconds: 0,
      etaSeconds: null,
    })
    const s = l.status('r')
    expect(s.state).toBe('running')
    expect(s.started).toBe(started)
    expect(
      s.events.map((e) => (e.type === 'run:progress' ? `${e.job.source ?? 'sim'} ${e.fraction}` : e.type)),
    ).toEqual(['sim 0.5', 'real 0.2', 'run:notice'])
    l.record({ type: 'run:failed', runId: 'r', cancelled: true, message: 'cancelled' })
    expect(l.status('r').state).toBe('cancelled')
    expect(l.status('nope')).toEqual({ runId: 'nope', state: 'unknown', started: null, events: [] })
  })

  it('keeps a validation’s latest progress, then its outcome: done, or cancelled', () => {
    const l = new RunLedger()
    const at = (stage: string, k: number, fraction: number | null) =>
      ({
        type: 'validate:progress',
        runId: 'v',
        stage,
        k,
        n: 3,
        run: { label: 'none', repetition: 0 },
        fraction,
        etaSeconds: null,
      }) as const
    l.begin('v', null)
    l.record(at('fingerprint', 1, 0.5))
    l.record({ type: 'run:notice', runId: 'v', message: 'detached /dev/loop9' })
    l.record(at('randread-qd1', 2, 0.25))
    const running = l.status('v')
    expect(running.state).toBe('running')
    expect(running.events).toEqual([
      at('randread-qd1', 2, 0.25),
      expect.objectContaining({ type: 'run:notice' }),
    ])
    const report = { schema: 'iosched-lab/validate@1' } as never
    l.record({ type: 'validate:done', runId: 'v', report })
    expect(l.status('v').state).toBe('done')
    expect(l.status('v').events.at(-1)).toEqual({ type: 'validate:done', runId: 'v', report })
    l.begin('w', null)
    l.record({ type: 'validate:failed', runId: 'w', cancelled: true, message: 'cancelled' })
    expect(l.status('w').state).toBe('cancelled')
  })

  it('forgets the oldest finished runs', () => {
    const l = new RunLedger(2)
    for (const id of ['a', 'b', 'c']) {
      l.begin(id, { ...started, runId: id })
      l.record({ type: 'run:failed', runId: id, cancelled: false, message: 'x' })
    }
    expect(['a', 'b', 'c'].map((id) => l.status(id).state)).toEqual(['unknown', 'failed', 'failed'])
  })
})

describe('LabService.runStatus', () => {
  let lab: LabService | null = null
  afterEach(() => lab?.dispose())

  it('answers a finished simulation with its start and its outcome', async () => {
    lab = newService()
    const rec = recorder(lab)
    const run = await lab.startRun({ spec: quickSpec })
    if (!('runId' in run)) throw new Error('not started')
    const during = await lab.runStatus({ runId: run.runId })
    expect(during).toMatchObject({ state: 'running', started: run })
    await rec.until('run:done', run.runId)
    const after = await lab.runStatus({ runId: run.runId })
    expect(after.state).toBe('done')
    // each job's result (run:done only names them), then the outcome; progress is gone
    expect(after.events.map((e) => e.type)).toEqual(['run:job-done', 'run:job-done', 'run:done'])
  })
})
