// A direct transfer's work per KiB in its own process (host dioReadUsPerKiB, dioWriteUsPerKiB):
// pinning the buffer's pages and building the bios before they go. Charged by size and direction,
// on the path to the device, so a large transfer issued beside a small one reaches the device
// later (traced on a loop device, 2026-12-07: a 1 MiB psync write 14–19 µs from its system call
// to its first request, a 4 KiB one 1 µs).
import { describe, expect, it } from 'vitest'
import { simulate } from '../../src/shared/experiment/runner'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { randomReader } from '../helpers/fio-process'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'

function run(host: Record<string, number>, params: Record<string, unknown>) {
  const spec = resolveSpec({
    device: { preset: 'nullblk', overrides: { completionUs: 20, queueDepth: 256 } },
    host: { preset: 'linux-modern', overrides: { cpus: 2, ...host } },
    workload: { processes: [randomReader(0.2, params)] },
    schedulers: ['none'],
  })
  const r = simulate(spec, 0, 0)
  const p = r.processes[0]
  return {
    cpuPerIoUs: (p.cpuSeconds * 1e6) / p.ops,
    p50Us: LatencyHistogram.fromJSON(p.latency).percentile(50) / 1000,
    deviceP50Us: LatencyHistogram.fromJSON(r.serviceLatency).percentile(50) / 1000,
  }
}

const PER_KIB = { dioReadUsPerKiB: 0.05, dioWriteUsPerKiB: 0.08 }

describe('the per-KiB work of a direct transfer', () => {
  it('costs the process its size times the rate, by direction', () => {
    for (const [rw, rate] of [
      ['randread', 0.05],
      ['randwrite', 0.08],
    ] as const) {
      for (const kib of [4, 256]) {
        const params = { rw, bs: `${kib}k` }
        const grew = run(PER_KIB, params).cpuPerIoUs - run({}, params).cpuPerIoUs
        expect(grew).toBeGreaterThan(kib * rate - 0.3)
        expect(grew).toBeLessThan(kib * rate + 0.3)
      }
    }
  })

  it('is charged before the bios go: the transfer waits for it, the device does not', () => {
    const params = { rw: 'randread', bs: '256k' }
    const free = run({}, params)
    const paid = run(PER_KIB, params)
    // the device's service is the same; fio's latency (from the system call) grows by ~12.8 µs
    expect(paid.deviceP50Us).toBeCloseTo(free.deviceP50Us, 0)
    expect(paid.p50Us - free.p50Us).toBeGreaterThan(11)
    expect(paid.p50Us - free.p50Us).toBeLessThan(15)
  })

  it('is charged to asynchronous submissions as well', () => {
    const params = { rw: 'randread', bs: '256k', iodepth: 4, ioengine: 'libaio' }
    const grew = run(PER_KIB, params).cpuPerIoUs - run({}, params).cpuPerIoUs
    expect(grew).toBeGreaterThan(12.8 - 0.5)
    expect(grew).toBeLessThan(12.8 + 0.5)
  })
})
