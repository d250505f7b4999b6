// The fingerprint's host correction puts fio's unexplained CPU per QD32 read into each request's
// submission (submitUs), not into every system call: a machine whose submissions are dear (a loop
// worker woken across vCPUs) still makes cheap buffered write()s, which submit nothing.
import { describe, expect, it } from 'vitest'
import { correctHost } from '../../src/main/services/real/fit-host'
import { cpuPoint as point } from '../helpers/fit-point'
import { fittedFingerprint, measuredSweep } from '../helpers/fitted-fingerprint'

describe("the fit of a request's submission", () => {
  it("adds the QD32 reads' unexplained CPU per I/O to submitUs, once per I/O, and leaves syscallUs", () => {
    const out = correctHost(
      { syscallUs: 0.3, submitUs: 0.5 },
      [point('qd32-randread', 12.3)],
      [point('qd32-randread', 0.8)],
    )
    expect(out.submitUs).toBeCloseTo(12, 3)
    expect(out.syscallUs).toBe(0.3)
  })

  it('never goes below nothing', () => {
    const out = correctHost({ submitUs: 0.5 }, [point('qd32-randread', 1)], [point('qd32-randread', 4)])
    expect(out.submitUs).toBe(0)
  })

  it('fits a machine of dear submissions so that its small buffered write()s stay as cheap as measured', () => {
    const points = measuredSweep({}, { submitUs: 10 })
    const doc = fittedFingerprint(points)
    expect(doc.host!.overrides.submitUs as number).toBeGreaterThan(6)
    expect(doc.host!.overrides.syscallUs ?? 0.3).toBeLessThan(1)
    // the 4 KiB buffered write()'s median as measured, within its fit's tolerance
    expect(Math.abs(doc.residuals!['buffered-randwrite'].p50)).toBeLessThan(0.15)
  })
})
