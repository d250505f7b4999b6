// A blocked process's wake-up costs CPU (host `wakeUs`): charged each time it resumes, so a
// synchronous reader (one sleep per I/O) pays it on every I/O and an asynchronous one at QD32
// (which seldom sleeps) far less often.
import { describe, expect, it } from 'vitest'
import { simulate } from '../../src/shared/experiment/runner'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { randomReader } from '../helpers/fio-process'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'

function run(wakeUs: number, iodepth: number, ioengine = iodepth > 1 ? 'libaio' : 'psync') {
  const spec = resolveSpec({
    device: { preset: 'nullblk', overrides: { completionUs: 20, queueDepth: 256 } },
    host: { preset: 'linux-modern', overrides: { cpus: 2, wakeUs } },
    workload: {
      processes: [randomReader(0.2, { iodepth, ioengine })],
    },
    schedulers: ['none'],
  })
  const r = simulate(spec, 0, 0)
  const p = r.processes[0]
  const p50Us = (h: Parameters<typeof LatencyHistogram.fromJSON>[0]): number =>
    LatencyHistogram.fromJSON(h).percentile(50) / 1000
  return {
    cpuPerIoUs: (p.cpuSeconds * 1e6) / p.ops,
    iops: p.ops / p.seconds,
    p50Us: p50Us(p.latency),
    deviceP50Us: p50Us(r.serviceLatency),
  }
}

describe('the CPU of a wake-up', () => {
  it('is paid once per I/O by a synchronous reader, and lengthens its cycle', () => {
    const free = run(0, 1)
    const paid = run(10, 1)
    expect(paid.cpuPerIoUs - free.cpuPerIoUs).toBeGreaterThan(9.5)
    expect(paid.cpuPerIoUs - free.cpuPerIoUs).toBeLessThan(10.5)
    // the wake-up is on the path from one I/O to the next: ~20 µs device + 10 µs more
    expect(paid.iops).toBeLessThan(0.8 * free.iops)
  })

  it('costs an asynchronous reader at QD32 less per I/O: it seldom sleeps', () => {
    const grew = run(10, 32).cpuPerIoUs - run(0, 32).cpuPerIoUs
    expect(grew).toBeLessThan(5)
  })

  // fio takes an asynchronous I/O's completion time when it reaps the event (io_getevents
  // returned), so a submitter asleep there counts its wake-up, as a psync reader does
  it('is in the latency of an asynchronous I/O reaped by a sleeping submitter', () => {
    const free = run(0, 1, 'libaio')
    const paid = run(50, 1, 'libaio')
    expect(paid.deviceP50Us).toBeCloseTo(free.deviceP50Us, 0)
    expect(paid.p50Us - free.p50Us).toBeGreaterThan(45)
    expect(paid.p50Us - free.p50Us).toBeLessThan(60)
  })
})
