// What handing a request to the device costs the loop worker (virtual notifyUs, segmentUs;
// devices/virtual.ts handWork): a notification when the device had no request in hand, the mapping
// of each segment beyond the first — on the worker, after the hand-off, beside the device's service.
import { describe, expect, it } from 'vitest'
import { simulate } from '../../src/shared/experiment/runner'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'
import type { ParamValues } from '../../src/shared/util/params'
import { job } from '../../src/shared/validate/matrix'
import { LOOP_LANES } from '../helpers/loop-lanes'

/** The loop device alone (no disk under it): the structure's requests in hand decide the notification. */
const OPAQUE = { backingScheduler: '', segmentKiB: '0:4, 100:4' }

function run(rw: string, bs: string, iodepth: number, overrides: ParamValues) {
  const spec = resolveSpec({
    device: {
      preset: 'loop-dio-virtio',
      overrides: {
        ...LOOP_LANES,
        readParallel: 64,
        writeParallel: 64,
        pathUs: 10,
        signalPerPass: false,
        ...overrides,
      },
    },
    host: { preset: 'linux-modern', overrides: { cpus: 2 } },
    workload: {
      processes: [
        {
          name: 'p',
          type: 'fio',
          params: job(rw, bs, iodepth, { size: '256M', time_based: true, runtime: 0.5 }),
        },
      ],
    },
    schedulers: ['none'],
  })
  const p = simulate(spec, 0).processes[0]
  return { iops: p.ops / p.seconds, meanUs: LatencyHistogram.fromJSON(p.latency).mean / 1000 }
}

describe('handing a request to the device', () => {
  it('notifies beside the service: a QD1 reader of a slow device loses nothing', () => {
    const slow = { ...OPAQUE, readServiceUs: '0:100, 100:100' }
    const without = run('randread', '4k', 1, slow)
    const withNotify = run('randread', '4k', 1, { ...slow, notifyUs: 40 })
    expect(withNotify.iops).toBeGreaterThan(0.99 * without.iops)
    expect(withNotify.iops).toBeLessThan(1.01 * without.iops)
  })

  it('holds the worker: the next request of a fast device waits for the notification of the last', () => {
    const fast = { ...OPAQUE, readServiceUs: '0:5, 100:5' }
    const without = run('randread', '4k', 1, fast)
    const withNotify = run('randread', '4k', 1, { ...fast, notifyUs: 60 })
    // each request finds the device idle: 10 µs of path and 60 of notification a request
    expect(withNotify.iops).toBeLessThan(1.01 * (1e6 / 70))
    expect(withNotify.iops).toBeGreaterThan(0.95 * (1e6 / 70))
    expect(withNotify.iops).toBeLessThan(0.6 * without.iops)
  })

  it('costs nothing while the device has requests in hand: a deep queue keeps its rate', () => {
    // 32 requests of 300 µs in hand against a worker of 5 µs a request: the device never drains
    const deep = { ...OPAQUE, readServiceUs: '0:300, 100:300', pathUs: 5 }
    const without = run('randread', '4k', 32, deep)
    const withNotify = run('randread', '4k', 32, { ...deep, notifyUs: 40 })
    // paid on every request, 40 µs would bound the worker at 22 000 a second
    expect(without.iops).toBeGreaterThan(90_000)
    expect(withNotify.iops).toBeGreaterThan(0.9 * without.iops)
  })

  it('maps each segment beyond the first: a split 1 MiB write of one-page segments waits for its first half’s', () => {
    // under the disk with its ring: 1 MiB of one-page segments is two requests of 128 segments
    // a fast link: the data of the first does not hide the second's wait
    const pages = { segmentKiB: '0:4, 100:4', writeServiceUs: '0:50, 100:50', writeMBps: 50_000 }
    const without = run('write', '1M', 1, pages)
    const mapped = run('write', '1M', 1, { ...pages, segmentUs: 1 })
    // the second request goes to the disk once the worker has mapped the first's 127 further segments
    expect(mapped.meanUs - without.meanUs).toBeGreaterThan(100)
    expect(mapped.meanUs - without.meanUs).toBeLessThan(200)
    // memory in 64 KiB runs: one request of 16 segments, 15 µs of mapping beside its service
    const runs = { ...pages, segmentKiB: '0:64, 100:64' }
    const contiguous = run('write', '1M', 1, runs)
    const contiguousMapped = run('write', '1M', 1, { ...runs, segmentUs: 1 })
    expect(contiguousMapped.meanUs - contiguous.meanUs).toBeLessThan(20)
  })
})
