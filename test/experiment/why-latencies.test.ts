import { describe, expect, it } from 'vitest'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { simulate } from '../../src/shared/experiment/runner'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'

// With the why on, a run's request (I→C) and service (D→C) latencies are built from its stages
// (collector.ts latencies(): each request's D2C, and its Q2C when it was queued the instant it was
// inserted, recorded once): they must be those of the same run without the why.

/** More psync readers than request slots (their requests wait for one: Q ≠ I) beside a writer. */
const spec = resolveSpec({
  name: 'why-latencies',
  device: { preset: 'nvme-tlc' },
  workload: {
    processes: [
      {
        name: 'readers',
        type: 'fio',
        params: { rw: 'randread', bs: '4k', ioengine: 'psync', direct: true, numjobs: 160, size: '64k' },
      },
      {
        name: 'writer',
        type: 'fio',
        params: { rw: 'randwrite', bs: '16k', ioengine: 'libaio', iodepth: 8, direct: true, size: '2m' },
      },
    ],
    stop: { maxSeconds: 10 },
  },
  schedulers: ['mq-deadline', 'bfq'],
})

describe('request and service latencies with the why on', () => {
  it.each([0, 1])('are those of the run without it (scheduler %i)', (i) => {
    const on = simulate(spec, i)
    const off = simulate(spec, i, 0, { why: false })
    // the case this is about: requests that waited for a slot, and requests that did not
    const waited = on.why!.processes.map((p) => {
      const q2g = LatencyHistogram.fromJSON(p.stages.q2g)
      return (
        q2g.count -
        q2g
          .toJSON()
          .counts.filter(([b]) => b === 0)
          .reduce((a, [, c]) => a + c, 0)
      )
    })
    expect(on.why!.processes.length).toBeGreaterThan(1)
    expect(waited.some((n) => n > 0)).toBe(true)
    expect(waited.reduce((a, n) => a + n, 0)).toBeLessThan(on.totals.requests)
    expect(on.requestLatency.count).toBe(on.totals.requests)
    expect(on.requestLatency).toEqual(off.requestLatency)
    expect(on.serviceLatency).toEqual(off.serviceLatency)
  })
})
