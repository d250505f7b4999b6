import { describe, expect, it } from 'vitest'
import { kindOf, processKinds, runLengthMeaningful } from '../../src/shared/experiment/process-kind'
import { syntheticRuns } from '../report/runs'

describe('fixed-size and time-based processes', () => {
  it('tells them from what held still across runs', () => {
    // the same work, in varying times: fixed size
    expect(kindOf({ bytes: [100, 100, 100], seconds: [1, 1.2, 0.9], finished: true })).toBe('fixed-size')
    // the same time, varying work: time-based (fio time_based with a runtime)
    expect(kindOf({ bytes: [100, 130, 90], seconds: [10, 10, 10], finished: true })).toBe('time-based')
    // still running when the run stopped: time-based (dd looping)
    expect(kindOf({ bytes: [100, 100], seconds: [5, 5], finished: false })).toBe('time-based')
    // nothing varies (a deterministic job): of fixed size
    expect(kindOf({ bytes: [100, 100], seconds: [5, 5], finished: true })).toBe('fixed-size')
  })

  it('reads runs, and takes the spec’s word for a looping or time_based job', () => {
    const runs = syntheticRuns({ deadline: [10, 11], noop: [12, 13] })
    expect(processKinds(runs)).toEqual(new Map([['reader', 'fixed-size']]))
    const spec = { processes: [{ name: 'reader', params: { loop: true } }] }
    expect(processKinds(runs, spec)).toEqual(new Map([['reader', 'time-based']]))
    const unfinished = runs.map((r, i) => ({
      ...r,
      processes: r.processes.map((p) => ({ ...p, finished: i !== 1 })),
    }))
    expect(processKinds(unfinished).get('reader')).toBe('time-based')
  })

  it('counts the run length only when every run ended with its processes', () => {
    const runs = syntheticRuns({ deadline: [10, 11] })
    expect(runLengthMeaningful(runs)).toBe(true)
    expect(runLengthMeaningful([...runs, { ...runs[0], stoppedBy: 'time-limit' }])).toBe(false)
    expect(runLengthMeaningful([])).toBe(false)
  })
})
