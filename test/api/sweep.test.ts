import { describe, expect, it } from 'vitest'
import { getAtPath, parsePath, range, setAtPath, sweepIssues } from '../../src/shared/api/sweep'

describe('sweeps', () => {
  it('parses the paths the spec validation reports', () => {
    expect(parsePath('schedulers[2].tunables.fifo_batch')).toEqual([
      'schedulers',
      2,
      'tunables',
      'fifo_batch',
    ])
    expect(parsePath('device.overrides.rpm')).toEqual(['device', 'overrides', 'rpm'])
    expect(parsePath('a..b')).toBeUndefined()
    expect(parsePath('[1]')).toBeUndefined()
  })

  it('sets a value in a copy, creating objects and turning a scheduler name into an entry', () => {
    const doc = { device: { preset: 'x' }, schedulers: ['noop', { name: 'deadline' }] }
    const a = setAtPath(doc, 'device.overrides.rpm', 5400)
    expect(getAtPath(a, 'device.overrides.rpm')).toBe(5400)
    expect(doc.device).toEqual({ preset: 'x' })
    const b = setAtPath(doc, 'schedulers[0].tunables.x', 3)
    expect(getAtPath(b, 'schedulers[0]')).toEqual({ name: 'noop', tunables: { x: 3 } })
    const c = setAtPath(doc, 'schedulers[1].tunables.fifo_batch', 4)
    expect(getAtPath(c, 'schedulers[1]')).toEqual({ name: 'deadline', tunables: { fifo_batch: 4 } })
    expect(() => setAtPath(doc, 'device.preset.x', 1)).toThrow(/not an object/)
  })

  it('spaces values evenly, integers without repeats', () => {
    expect(range(1, 16, 4, true)).toEqual([1, 6, 11, 16])
    expect(range(1, 3, 5, true)).toEqual([1, 2, 3])
    expect(range(0, 1, 3)).toEqual([0, 0.5, 1])
  })

  it('checks the sweep itself', () => {
    expect(sweepIssues({ path: 'device.overrides.rpm', values: [1, 2] })).toEqual([])
    expect(sweepIssues({ path: 'x[', values: [1] }).map((i) => i.path)).toEqual([
      'sweep.path',
      'sweep.values',
    ])
  })
})
