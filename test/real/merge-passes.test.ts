// A fingerprint point measured in several passes: the median pass by rate when there are three or
// more (one pass off by a third on a shared VM does not move the point), the mean of two.
import { describe, expect, it } from 'vitest'
import { mergePasses } from '../../src/main/services/real/fingerprint-passes'
import type { FitPoint } from '../../src/main/services/real/fit-virtual'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'

function pass(iops: number, latencyUs: number): FitPoint {
  const h = new LatencyHistogram()
  for (let i = 0; i < 100; i++) h.record(latencyUs * 1000)
  return {
    name: 'qd8-randread',
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
})
