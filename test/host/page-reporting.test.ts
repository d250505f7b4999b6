// Free page reporting (host freshPageUs, pageReportingDelayMs): pages a VM guest freed and
// reported are taken back by the hypervisor, and touching them again costs system time; memory
// freed and allocated again before the report (2 s later) does not.
import { describe, expect, it } from 'vitest'
import { PageReporting } from '../../src/shared/host/page-reporting'
import { simulate } from '../../src/shared/experiment/runner'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { MS } from '../../src/shared/sim/time'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'

describe('free page reporting, the bookkeeping', () => {
  it('hands out warm pages first, fresh ones once the report has run', () => {
    const r = new PageReporting(2000 * MS)
    expect(r.take(100, 0)).toBe(100) // nothing freed yet: all fresh
    r.freed(60, 10 * MS) // the report is due at 2010 ms
    expect(r.take(40, 500 * MS)).toBe(0)
    expect(r.take(40, 1000 * MS)).toBe(20) // 20 warm left
    r.freed(50, 1500 * MS) // the work already scheduled reports these too
    expect(r.take(50, 2010 * MS)).toBe(50)
    r.freed(10, 3000 * MS) // a free after the report asks again: due at 5000 ms
    expect(r.take(10, 4999 * MS)).toBe(0)
    expect(r.freshTotal).toBe(100 + 20 + 50)
  })
})

describe('free memory the guest never reports (host warmPoolMiB)', () => {
  it('is warm from the start and after every report, used first and filled again first', () => {
    const r = new PageReporting(2000 * MS, () => 0, 30)
    // the pool first: 30 warm pages at the start, the rest fresh
    expect(r.take(100, 0)).toBe(70)
    r.freed(100, 10 * MS)
    // the report (at 2010 ms) takes what was freed beyond the pool
    expect(r.take(50, 3000 * MS)).toBe(20)
    expect(r.take(10, 3000 * MS)).toBe(10)
    // freed again: warm until the next report, then the pool's share of it stays
    r.freed(5, 4000 * MS)
    expect(r.take(5, 7000 * MS)).toBe(0)
  })

  it('keeps the writes of a buffered pass warm for as long as it lasts (fp34: 52 of 64 MiB)', () => {
    const slow = (warmPoolMiB: number) => {
      const spec = resolveSpec({
        device: { preset: 'nullblk', overrides: { completionUs: 20, queueDepth: 256 } },
        host: {
          preset: 'linux-modern',
          overrides: { cpus: 2, copyUsPerKiB: 0.1, freshPageUs: 9, warmPoolMiB },
        },
        workload: {
          processes: [
            {
              name: 'w',
              type: 'fio',
              params: { rw: 'write', bs: '1M', size: '64M', direct: false, filename: '/dev' },
            },
          ],
        },
        schedulers: ['none'],
      })
      const p = simulate(spec, 0, 0).processes[0]
      // the writes that paid for reported pages: over 1 ms (256 pages × 9 µs = 2.3 ms)
      return p.latencyMs.p99 > 1
        ? Math.round(64 * (1 - LatencyHistogram.fromJSON(p.latency).fractionAtMost(1e6)))
        : 0
    }
    expect(slow(0)).toBe(64)
    expect(slow(52)).toBe(12)
    expect(slow(64)).toBe(0)
  })
})

/** Buffered 1 MiB writes of 64 MiB to the raw device by three processes, starting at these times. */
function writes(freshPageUs: number, starts: number[]) {
  const spec = resolveSpec({
    device: { preset: 'nullblk', overrides: { completionUs: 20, queueDepth: 256 } },
    host: { preset: 'linux-modern', overrides: { cpus: 2, copyUsPerKiB: 0.1, freshPageUs } },
    workload: {
      processes: starts.map((startMs, i) => ({
        name: `w${i}`,
        type: 'fio',
        params: { rw: 'write', bs: '1M', size: '64M', direct: false, filename: '/dev' },
        startMs,
      })),
    },
    schedulers: ['none'],
  })
  return simulate(spec, 0, 0).processes.map((p) => p.latencyMs.p50)
}

describe('free page reporting on a buffered writer', () => {
  it('costs the writer the first touch of reported pages, not of pages it freed moments before', () => {
    // fio invalidates the device's cache as each job starts (BLKFLSBUF): w1 frees w0's pages
    // and writes into them 1 s later (warm); w2 starts 6 s after, past the 2 s report (fresh)
    const [w0, w1, w2] = writes(9, [0, 1000, 7000])
    const [b0, b1, b2] = writes(0, [0, 1000, 7000])
    const perMiB = 256 * 9e-3 // ms: 256 pages of 9 µs
    expect(w0 - b0).toBeGreaterThan(0.9 * perMiB)
    expect(w0 - b0).toBeLessThan(1.1 * perMiB)
    expect(Math.abs(w1 - b1)).toBeLessThan(0.05 * perMiB)
    expect(w2 - b2).toBeGreaterThan(0.9 * perMiB)
  })

  it('changes nothing without reporting (freshPageUs 0, the default)', () => {
    const [b0, b1] = writes(0, [0, 1000])
    expect(Math.abs(b0 - b1) / b0).toBeLessThan(0.05)
  })
})
