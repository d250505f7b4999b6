// A fingerprint fitted again over a validation's span: each sweep point pooled from the start and
// the sweep after the matrix, weighted alike; its noise at least their spread; the fit follows the
// machine where it moved; and where the sweep after measured nothing, nothing is fitted.
import { beforeAll, describe, expect, it } from 'vitest'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'
import { bracketFingerprint } from '../../src/main/services/real/fingerprint-bracket'
import type { PresetDocument } from '../../src/main/services/real/fingerprint-types'
import type { FitPoint } from '../../src/main/services/real/fit-virtual'
import { fittedFingerprint, measuredSweep } from '../helpers/fitted-fingerprint'

const count = (p: FitPoint): number => LatencyHistogram.fromJSON(p.latency).count
const point = (ps: readonly FitPoint[], name: string): FitPoint => ps.find((p) => p.name === name)!

let start: PresetDocument
/** The same sweep after the matrix, on a machine whose 4 KiB reads slowed: QD1 times and their contention doubled. */
let after: FitPoint[]
let span: PresetDocument
beforeAll(() => {
  start = fittedFingerprint()
  after = measuredSweep({
    readServiceUs:
      '0:26.38, 1:60.296, 5:83.848, 10:86.92, 25:94.088, 50:97.16, 75:103.304, 90:137.096, 95:147.336, 99:585.608, 99.9:962.44, 99.99:3338.12, 100:7219.44',
    readContentionUs: 12.746,
  })
  span = bracketFingerprint(start, after, 3, new Date('2026-12-07T15:00:00Z'))!
}, 300_000)

describe('a fingerprint fitted over a validation’s span', () => {
  it('pools each point from the start and after the matrix alike: rates averaged, histograms merged', () => {
    expect(span).not.toBeNull()
    const s = point(start.measured.fitPoints!, 'qd1-randread')
    const a = point(after, 'qd1-randread')
    expect(a.iops).toBeLessThan(0.8 * s.iops)
    const pooled = point(span.measured.fitPoints!, 'qd1-randread')
    expect(pooled.iops).toBeCloseTo((s.iops + a.iops) / 2, 6)
    expect(count(pooled)).toBe(count(s) + count(a))
    // what the fit reads beside the rates stays: the buffered point's fresh-page excess
    expect(point(span.measured.fitPoints!, 'buffered-write').freshExcessNs).toBe(
      point(start.measured.fitPoints!, 'buffered-write').freshExcessNs,
    )
    expect(span.bracketed).toEqual({ at: '2026-12-07T15:00:00.000Z', passesAfter: 3, from: 'fp-test' })
    expect(span.refitted).toBeUndefined()
    // the scheduler point, measured at the start only, keeps its place
    expect(span.schedulerPoints).toHaveLength(start.schedulerPoints!.length)
  })

  it('counts a point no surer than the spread between the start and the end', () => {
    const s = point(start.measured.fitPoints!, 'qd1-randread')
    const a = point(after, 'qd1-randread')
    const spread = Math.abs(s.iops - a.iops) / ((s.iops + a.iops) / 2)
    expect(span.residuals!['qd1-randread'].noise).toBeGreaterThanOrEqual(spread - 1e-9)
    expect(start.residuals!['qd1-randread'].noise).toBeLessThan(spread)
  })

  it('fits the device as it was over the span: its reads between the start’s and the end’s', () => {
    const sim = (d: PresetDocument, name: string): number =>
      d.simulated.points.find((p) => p.name === name)!.iops
    const end = point(after, 'qd1-randread').iops
    expect(sim(span, 'qd1-randread')).toBeLessThan(sim(start, 'qd1-randread'))
    expect(sim(span, 'qd1-randread')).toBeGreaterThan(end)
    // and re-simulates the pooled sweep as the fit at the start re-simulated its own
    expect(Math.abs(span.residuals!['qd1-randread'].iops)).toBeLessThan(0.1)
  })

  it('fits nothing when the sweep after the matrix measured none of its points', () => {
    expect(bracketFingerprint(start, [], 1)).toBeNull()
    expect(
      bracketFingerprint(
        start,
        after.map((p) => ({ ...p, iops: 0 })),
        1,
      ),
    ).toBeNull()
  })
})
