import { describe, expect, it } from 'vitest'
import { realEta } from '../../src/renderer/src/lib/real-eta'
import type { JobState } from '../../src/renderer/src/stores/run'

// The overall ETA of a real run's fio runs: the time limit per run left at first, then the
// measured pace (start-up included) once runs have finished; fio's own ETA for the one running.
const job = (i: number, state: JobState['state'], more: Partial<JobState> = {}): JobState => ({
  job: { point: 0, schedIndex: i, repetition: 0, label: `s${i}`, source: 'real', maxSeconds: 10 },
  fraction: 0,
  etaSeconds: null,
  simSeconds: 0,
  state,
  ...more,
})

describe('the overall ETA of real runs', () => {
  it('starts from the time limit of each run left', () => {
    expect(realEta([job(0, 'waiting'), job(1, 'waiting'), job(2, 'waiting')], 0)).toEqual({
      done: 0,
      total: 3,
      seconds: 30,
    })
    // a simulation's jobs do not count
    const sim = { ...job(3, 'waiting'), job: { point: 0, schedIndex: 3, repetition: 0, label: 's3' } }
    expect(realEta([sim], 0)).toBeNull()
  })

  it('counts the running one down, by fio’s ETA once it has one', () => {
    const starting = job(0, 'running', { startedMs: 1_000, phase: 'dropping the page cache' })
    expect(realEta([starting, job(1, 'waiting')], 5_000)?.seconds).toBe(6 + 10)
    const going = job(0, 'running', { startedMs: 1_000, fraction: 0.5, etaSeconds: 4 })
    expect(realEta([going, job(1, 'waiting')], 5_000)?.seconds).toBe(4 + 10)
  })

  it('refines the pace by the runs done: 16 s each where the limit said 10', () => {
    const done = job(0, 'done', { startedMs: 0, endedMs: 16_000 })
    expect(realEta([done, job(1, 'waiting'), job(2, 'waiting'), job(3, 'failed')], 16_000)).toEqual({
      done: 1,
      total: 4,
      seconds: 32,
    })
  })

  it('knows no ETA without a time limit', () => {
    const j = job(0, 'waiting')
    delete j.job.maxSeconds
    expect(realEta([j], 0)?.seconds).toBeNull()
  })
})
