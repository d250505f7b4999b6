import { describe, expect, it } from 'vitest'
import * as K from '../../src/shared/host/continuations'

// Task.cpuDone dispatches on these numbers: two continuations sharing one would silently run the
// wrong path (two branches adding states at once gave 17 and 18 to four of them).
describe('task continuations', () => {
  it('each have a number of their own', () => {
    const ks = Object.entries(K).filter(([name]) => name.startsWith('K_'))
    expect(ks.length).toBeGreaterThan(20)
    const byNumber = new Map<unknown, string[]>()
    for (const [name, v] of ks) byNumber.set(v, [...(byNumber.get(v) ?? []), name])
    expect([...byNumber.values()].filter((names) => names.length > 1)).toEqual([])
  })
})
