// `run`'s table says when repetitions were identical, instead of intervals of ± 0.
import { describe, expect, it } from 'vitest'
import { table } from '../../src/cli/commands/run'
import { experiment } from '../library/helpers'

describe('run table with identical repetitions', () => {
  it('prints no ± for identical runs and says why, naming the rows', () => {
    const out = table(experiment('det', { noop: [2, 2, 2], deadline: [2.5, 2.4, 2.6] }))
    const noop = out.split('\n').find((l) => l.startsWith('noop'))!
    const deadline = out.split('\n').find((l) => l.startsWith('deadline'))!
    expect(noop).not.toContain('±')
    expect(deadline).toMatch(/\d ± \d/)
    expect(out).toContain('Identical repetitions (deterministic workload): noop — every run the same')
  })

  it('says nothing of it when the runs vary', () => {
    expect(table(experiment('var', { noop: [2, 2.1, 1.9] }))).not.toContain('Identical repetitions')
  })
})
