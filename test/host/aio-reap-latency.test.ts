// fio takes an asynchronous I/O's completion time when it reaps the event (io_getevents returned),
// so a submitter asleep in io_getevents counts its wake-up in the latency — as a psync reader
// does — while the device's own time is the same.
import { describe, expect, it } from 'vitest'
import { simulate } from '../../src/shared/experiment/runner'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'

function run(wakeUs: number) {
  const r = simulate(
    resolveSpec({
      device: { preset: 'nullblk', overrides: { completionUs: 100 } },
      host: { preset: 'linux-modern', overrides: { cpus: 2, wakeUs } },
      workload: {
        processes: [
          {
            name: 'r',
            type: 'fio',
            params: {
              rw: 'randread',
              bs: '4k',
              iodepth: 1,
              ioengine: 'libaio',
              direct: true,
              filename: '/dev',
              size: '64M',
              time_based: true,
              runtime: 0.3,
            },
          },
        ],
      },
      schedulers: ['none'],
    }),
    0,
    0,
  )
  return {
    p50: LatencyHistogram.fromJSON(r.processes[0].latency).percentile(50) / 1000,
    device: LatencyHistogram.fromJSON(r.serviceLatency).percentile(50) / 1000,
  }
}

describe('libaio latency ends at the reap', () => {
  it('includes the wake-up of a submitter asleep in io_getevents', () => {
    const quick = run(0)
    const slow = run(50)
    expect(slow.device).toBeCloseTo(quick.device, 0)
    expect(slow.p50 - quick.p50).toBeGreaterThan(45)
    expect(slow.p50 - quick.p50).toBeLessThan(60)
  })
})
