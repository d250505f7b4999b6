// A buffered write()'s own work drawn per call from a measured distribution (host
// `writeCallQuantilesUs`): small buffered writes get the tail their median does not show, and
// the draws, from a stream of their own, move nothing in a run that makes no such call.
import { describe, expect, it } from 'vitest'
import { simulate } from '../../src/shared/experiment/runner'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'
import type { ParamValues } from '../../src/shared/util/params'
import { randomReader } from '../helpers/fio-process'

/** A 4 KiB buffered random writer over 64 MiB (no flush in the way: well under the dirty limits). */
function writer(host: ParamValues) {
  const spec = resolveSpec({
    device: { preset: 'nullblk', overrides: { completionUs: 20 } },
    host: { preset: 'linux-modern', overrides: { cpus: 2, ...host } },
    workload: {
      processes: [
        {
          name: 'w',
          type: 'fio',
          params: { rw: 'randwrite', bs: '4k', size: '64M', direct: false, invalidate: false },
        },
      ],
    },
    schedulers: ['none'],
  })
  const p = simulate(spec, 0, 0).processes[0]
  const h = LatencyHistogram.fromJSON(p.latency)
  return { pctUs: (q: number) => h.percentile(q) / 1000, cpuPerIoUs: (p.cpuSeconds * 1e6) / p.ops }
}

describe("a buffered write()'s own work as a distribution", () => {
  it('is the same every call without a table: the latency is a spike', () => {
    const w = writer({ writeCallUs: 1 })
    expect(w.pctUs(99) - w.pctUs(1)).toBeLessThan(0.01)
  })

  it('gives the writes the table’s spread, its median where writeCallUs put it', () => {
    const flat = writer({ writeCallUs: 1 })
    const spread = writer({ writeCallUs: 1, writeCallQuantilesUs: '0:0.5, 10:0.7, 50:1, 90:2, 99:5, 100:5' })
    // the rest of the call (system call, one page's copy) is the same: the difference is the table's
    const rest = flat.pctUs(50) - 1
    for (const [q, us] of [
      [10, 0.7],
      [50, 1],
      [90, 2],
      [99, 5],
    ] as const) {
      expect(spread.pctUs(q)).toBeGreaterThan((rest + us) * 0.95)
      expect(spread.pctUs(q)).toBeLessThan((rest + us) * 1.05)
    }
    // the mean work grew past the median's: the CPU per I/O with it
    expect(spread.cpuPerIoUs).toBeGreaterThan(flat.cpuPerIoUs + 0.2)
  })

  it('moves nothing in a run without buffered writes', () => {
    const run = (host: ParamValues) =>
      simulate(
        resolveSpec({
          device: { preset: 'ssd-sata-mlc' },
          host: { preset: 'linux-modern', overrides: host },
          workload: { processes: [randomReader(0.05)] },
          schedulers: ['mq-deadline'],
        }),
        0,
        0,
      ).processes[0].latency
    expect(run({ writeCallQuantilesUs: '0:1, 50:2, 100:40' })).toEqual(run({}))
  })

  it('says where a bad table is', () => {
    expect(() =>
      resolveSpec({
        device: { preset: 'nullblk' },
        host: { preset: 'linux-modern', overrides: { writeCallQuantilesUs: '50:1, 100:2' } },
        workload: { processes: [randomReader(0.05)] },
        schedulers: ['none'],
      }),
    ).toThrow(/host\.overrides\.writeCallQuantilesUs.*first point must be at 0 %/)
  })
})
