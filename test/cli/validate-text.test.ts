// `iosched-lab validate`'s text report: the verdicts say when there was nothing to judge, the
// pairs before the false-discovery control are counted, and the drift check is a table.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { renderReport } from '../../src/cli/commands/validate'
import type { ValidateReport } from '../../src/shared/validate/report'

const fixture = (): ValidateReport =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../renderer/fixtures/validate-quick-loop.json'), 'utf8'))

describe('validate text report', () => {
  it('judges the ordering only where the kernel separated a pair', () => {
    const r = fixture()
    expect(renderReport(r)).toMatch(
      /ordered as the kernel: 0 of 4 separable pairs \(0 %; target ≥ 90\.0 %: NOT met\)/,
    )
    r.summary = {
      ...r.summary,
      separablePairs: 0,
      orderedSame: 0,
      orderedShare: 1,
      uncorrected: { separablePairs: 3, orderedSame: 1 },
    }
    const text = renderReport(r)
    expect(text).toContain(
      'ordered as the kernel: the kernel separated none of the 36 pairs beyond the noise, nothing to judge (target ≥ 90.0 %)',
    )
    expect(text).toContain('(each pair tested alone, p < 0.05: 1 of 3; 36 pairs were tested)')
  })

  it('shows how far the machine moved since the fingerprint', () => {
    const r = fixture()
    r.drift = {
      seconds: 3,
      worst: 0.39,
      points: [
        {
          name: 'seq-read',
          fingerprint: { iops: 1462, p50Ms: 2.7 },
          now: { iops: 2030, p50Ms: 1.9 },
          change: { iops: 0.39, p50: -0.3 },
          noise: 0.24,
          beyondNoise: true,
        },
      ],
    }
    const text = renderReport(r)
    expect(text).toMatch(/^seq-read +1462 +2030 +39\.0 % +2\.70 +1\.90 +-30\.0 % +24\.0 % +moved$/m)
    expect(text).toContain(
      'the machine moved by up to 39.0 % between the fingerprint and the end (1 of 1 points beyond their noise)',
    )
  })
})
