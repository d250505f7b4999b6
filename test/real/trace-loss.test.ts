import { describe, expect, it } from 'vitest'
import { STAGES_LOSS_LIMIT, stagesLossProblem } from '../../src/main/services/real/ftrace-capture'

// A trace that lost many of its events cannot pair each request's events (they are told apart by
// sector): its per-request stages are left out, saying why, rather than shown wrong.
describe('a trace that lost events', () => {
  it('keeps its stages when it lost none or a few', () => {
    expect(stagesLossProblem(0, 1_000_000)).toBeNull()
    expect(stagesLossProblem(1000, 1_000_000)).toBeNull()
    expect(STAGES_LOSS_LIMIT).toBeLessThanOrEqual(0.01)
  })
  it('leaves them out, saying how much was lost, when it lost more', () => {
    // the buffered writer's run of 2026-12-05: 1.87 M events lost
    const p = stagesLossProblem(1_870_071, 1_200_000)
    expect(p).toMatch(/request stages are left out: the trace lost 61 % of its events \(1870071 of 3070071\)/)
    expect(stagesLossProblem(20_000, 980_000)).toMatch(/lost 2\.0 %/)
  })
})
