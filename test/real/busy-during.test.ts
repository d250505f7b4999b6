import { describe, expect, it } from 'vitest'
import { busyDuring } from '../../src/main/services/real/fingerprint'
import type { RealRunResult } from '../../src/main/services/real/real-result'
import type { ProcessResult } from '../../src/shared/experiment/result'

// The CPUs a sweep point kept busy beyond the machine's background, from the sampled /proc/stat.
// The series is this machine's (a 2-second QD32 random-read point 2.2 s into the sweep, fio's
// first I/O 433 ms after sampling began): fio's start-up is busier than the point itself.
describe('the CPUs a fingerprint point keeps busy', () => {
  const tMs = Array.from({ length: 20 }, (_, i) => i * 250)
  const busy = [
    0.82, 0.24, 0.41, 0.49, 0.32, 0.52, 0.43, 0.43, 0.43, 0.17, 0.42, 0.56, 0.55, 0.49, 0.75, 0.68, 0.76,
    0.86, 0.04, 0.58,
  ]
  const run = { real: { ioStartMs: 433, vmstat: { tMs, busyCpus: busy } } } as unknown as RealRunResult
  const point = { startSeconds: 2.2, seconds: 2 } as ProcessResult

  it('takes the quietest sample of the run as the background, not fio’s start-up', () => {
    // samples from 2633 to 4633 ms: 0.56 … 0.86; background 0.04 (the quietest after the first I/O)
    const during = [0.56, 0.55, 0.49, 0.75, 0.68, 0.76, 0.86]
    const expected = during.reduce((a, b) => a + b, 0) / during.length - 0.04
    expect(busyDuring(run, point)).toBeCloseTo(expected, 6)
  })

  it('says nothing without samples or a start of the I/O', () => {
    expect(
      busyDuring(
        { real: { ioStartMs: null, vmstat: { tMs, busyCpus: busy } } } as unknown as RealRunResult,
        point,
      ),
    ).toBeNull()
    expect(busyDuring(run, { startSeconds: 60, seconds: 2 } as ProcessResult)).toBeNull()
  })
})
