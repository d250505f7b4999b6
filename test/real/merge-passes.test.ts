// A fingerprint point measured in several passes: the median pass by rate when there are three or
// more (one pass off by a third on a shared VM does not move the point), the mean of two.
import { describe, expect, it } from 'vitest'
import { inPasses, mergePasses } from '../../src/main/services/real/fingerprint-passes'
import type { FitPoint } from '../../src/main/services/real/fit-virtual'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'

function pass(iops: number, latencyUs: number, name: FitPoint['name'] = 'qd8-randread'): FitPoint {
  const h = new LatencyHistogram()
  for (let i = 0; i < 100; i++) h.record(latencyUs * 1000)
  return {
    name,
    iops,
    MBps: (iops * 4096) / 1e6,
    latency: h.toJSON(),
    fioCpuUs: 5,
    busyCpus: 1,
  }
}

describe('passes of a fingerprint point', () => {
  it('three passes: the median one, its rate and histogram together', () => {
    const m = mergePasses([pass(50_000, 160), pass(33_000, 240), pass(48_000, 166)])
    expect(m.iops).toBe(48_000)
    expect(LatencyHistogram.fromJSON(m.latency).count).toBe(100)
    expect(LatencyHistogram.fromJSON(m.latency).percentile(50) / 1000).toBeCloseTo(166, -1)
  })

  it('two passes: the rates averaged, the histograms merged', () => {
    const m = mergePasses([pass(50_000, 160), pass(40_000, 200)])
    expect(m.iops).toBe(45_000)
    expect(LatencyHistogram.fromJSON(m.latency).count).toBe(200)
  })

  it('a sweep in passes: each point its own median pass, as the real sweep is merged', () => {
    // the simulated sweep runs as many passes as the real one (a run draws its buffers' contiguity
    // and its stalls), and each point takes its median pass on its own
    const rates = [
      [900, 1500],
      [1000, 2500],
      [1100, 1600],
    ]
    const merged = inPasses(3, (k) => [
      pass(rates[k][0], 100, 'qd1-randread'),
      pass(rates[k][1], 600, 'seq-write'),
    ])
    expect(merged.map((p) => [p.name, p.iops])).toEqual([
      ['qd1-randread', 1000],
      ['seq-write', 1600],
    ])
    expect(inPasses(1, () => [pass(7, 1)])[0].iops).toBe(7)
  })
})
