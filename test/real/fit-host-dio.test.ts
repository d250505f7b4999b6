// The fingerprint's host correction fits a direct transfer's work per KiB (dio*UsPerKiB) from
// fio's own CPU per I/O at the 1 MiB sequential points beyond what the simulation spent there.
import { describe, expect, it } from 'vitest'
import { correctHost } from '../../src/main/services/real/fit-host'
import { cpuPoint as point } from '../helpers/fit-point'

describe("the fit of a direct transfer's work per KiB", () => {
  it('adds the 1 MiB points’ unexplained CPU per I/O, per KiB, to each direction', () => {
    const meas = [point('seq-read', 51.5), point('seq-write', 70.2)]
    const sim = [point('seq-read', 10.5), point('seq-write', 11.8)]
    const out = correctHost({ dioReadUsPerKiB: 0.01 }, meas, sim)
    expect(out.dioReadUsPerKiB).toBeCloseTo(0.01 + 41 / 1024, 4)
    expect(out.dioWriteUsPerKiB).toBeCloseTo(58.4 / 1024, 4)
  })

  it('never goes below nothing, and leaves a direction without its point alone', () => {
    const out = correctHost({ dioWriteUsPerKiB: 0.02 }, [point('seq-read', 5)], [point('seq-read', 40)])
    expect(out.dioReadUsPerKiB).toBe(0)
    expect(out.dioWriteUsPerKiB).toBe(0.02)
  })
})
