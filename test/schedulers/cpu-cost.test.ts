import { describe, expect, it } from 'vitest'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { simulate } from '../../src/shared/experiment/runner'
import { schedulers } from '../../src/shared/schedulers/registry'
import { SCHEDULER_CPU_COST } from '../../src/shared/schedulers/cpu-cost'

// The schedulers' per-request CPU work, charged to the submitting process: on a fast device with
// few CPUs it bounds the IOPS, in proportion to the CPU each I/O takes.

/** 16 processes of 4 KiB random reads at QD1 (psync, direct) on a 2 µs device, `cpus` CPUs, for 50 ms. */
function run(
  scheduler: string,
  cpus: number,
  scale = 1,
  engine: { ioengine?: string; iodepth?: number; numjobs?: number } = {},
  completionUs = 2,
) {
  const spec = resolveSpec({
    device: { preset: 'nullblk', overrides: { completionUs, queueDepth: 256 } },
    host: { preset: 'linux-modern', overrides: { cpus, schedCpuScale: scale } },
    workload: {
      processes: [
        {
          name: 'r',
          type: 'fio',
          params: {
            rw: 'randread',
            bs: '4k',
            size: '64M',
            direct: true,
            time_based: true,
            runtime: 0.05,
            numjobs: 16,
            ...engine,
          },
        },
      ],
    },
    schedulers: [scheduler],
  })
  const r = simulate(spec, 0, 0)
  const ops = r.processes.reduce((a, p) => a + p.ops, 0)
  const cpu = r.processes.reduce((a, p) => a + p.cpuSeconds, 0)
  return { r, ops, cpu, requests: r.totals.requests }
}

describe('scheduler CPU cost', () => {
  it('is data with a source for mq-deadline, kyber and bfq, and absent (0) for the others', () => {
    const withCost = schedulers.filter((s) => s.cpuCost !== undefined).map((s) => s.name)
    expect(withCost.sort()).toEqual(['bfq', 'kyber', 'mq-deadline'])
    for (const s of schedulers)
      if (s.cpuCost) {
        expect(s.cpuCost.unit).toBe('µs')
        expect(s.cpuCost.source).toMatch(/ICPE 2024/)
      }
    // the order the measurement found: none < mq-deadline < kyber < bfq
    const us = (s: keyof typeof SCHEDULER_CPU_COST) => SCHEDULER_CPU_COST[s].default as number
    expect(us('mq-deadline')).toBeLessThan(us('kyber'))
    expect(us('kyber')).toBeLessThan(us('bfq'))
  })

  it('charges each request’s cost to the process that made it', () => {
    const charged = run('bfq', 1)
    const free = run('bfq', 1, 0)
    // per request made: the difference in CPU time over the requests the device served
    const perRequest = (charged.cpu - (free.cpu / free.requests) * charged.requests) / charged.requests
    expect(perRequest * 1e6).toBeCloseTo(SCHEDULER_CPU_COST.bfq.default as number, 2)
  })

  it('bounds a CPU-saturated run’s IOPS, by the CPU per I/O, and not with CPUs to spare', () => {
    const none1 = run('none', 1)
    const bfq1 = run('bfq', 1)
    const free1 = run('bfq', 1, 0)
    // one CPU, 16 readers, a 2 µs device: the CPU is the bottleneck
    const perIoNone = none1.cpu / none1.ops
    const perIoBfq = bfq1.cpu / bfq1.ops
    expect(perIoBfq - perIoNone).toBeCloseTo((SCHEDULER_CPU_COST.bfq.default as number) / 1e6, 7)
    expect(bfq1.ops / none1.ops).toBeCloseTo(perIoNone / perIoBfq, 1)
    expect(bfq1.ops).toBeLessThan(0.9 * none1.ops)
    // the cost scaled to 0, BFQ's own decisions do not cost IOPS here
    expect(free1.ops / none1.ops).toBeGreaterThan(0.97)
    // with 16 CPUs for 16 readers the device and the readers' own waits bound it, not the CPU
    const none16 = run('none', 16)
    const bfq16 = run('bfq', 16)
    expect(bfq16.ops / none16.ops).toBeGreaterThan(bfq1.ops / none1.ops)
    expect(none16.ops).toBeGreaterThan(1.5 * none1.ops)
  })

  it('charges asynchronous submitters too, with their next system call (libaio at QD8)', () => {
    const aio = { ioengine: 'libaio', iodepth: 8 }
    for (const scheduler of ['kyber', 'bfq'] as const) {
      const charged = run(scheduler, 1, 1, aio)
      const free = run(scheduler, 1, 0, aio)
      const perRequest = (charged.cpu - (free.cpu / free.requests) * charged.requests) / charged.requests
      expect(perRequest * 1e6).toBeCloseTo(SCHEDULER_CPU_COST[scheduler].default as number, 1)
      // the CPU is the bottleneck: the cost shows in the IOPS
      expect(charged.ops).toBeLessThan(free.ops)
    }
  })

  it('comes between a request’s submission and the device, so a lone QD1 reader waits for it', () => {
    // one reader, a CPU to spare, a 100 µs device: the scheduler's insert and dispatch run before
    // the driver sees the request (blk_mq_insert_request, then the submitter's queue run), so
    // each request's latency grows by the cost, not only the reader's CPU time
    const scale = 20
    for (const scheduler of ['mq-deadline', 'bfq'] as const) {
      const charged = run(scheduler, 2, scale, { numjobs: 1 }, 100)
      const free = run(scheduler, 2, 0, { numjobs: 1 }, 100)
      const costMs = ((SCHEDULER_CPU_COST[scheduler].default as number) * scale) / 1000
      const grew = charged.r.processes[0].latencyMs.mean - free.r.processes[0].latencyMs.mean
      expect(grew).toBeGreaterThan(0.9 * costMs)
      expect(grew).toBeLessThan(1.1 * costMs)
    }
  })
})
