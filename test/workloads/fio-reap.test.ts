// fio reaps an asynchronous job's completions as fio does: with its defaults
// (iodepth_batch_complete_min = max = 1) one event per io_getevents, each replaced before the next
// is reaped — so an I/O's clat runs until its own reap, the job keeps its whole depth in flight,
// and clat × IOPS is the depth (Little's law). Reaping in batches (iodepth_batch_complete_max)
// ends the batch's clats together, then submits its replacements one after another: fewer I/Os
// in flight, shorter clats, one system call per batch instead of per I/O.
import { describe, expect, it } from 'vitest'
import { simulate } from '../../src/shared/experiment/runner'
import { formatIssues, resolveSpec, validateSpec } from '../../src/shared/experiment/validate'
import { randomReader } from '../helpers/fio-process'

const SYSCALL_US = 5

function run(extra: Record<string, number> = {}) {
  const spec = resolveSpec({
    device: { preset: 'nullblk', overrides: { completionUs: 150, queueDepth: 256 } },
    host: { preset: 'linux-modern', overrides: { cpus: 2, syscallUs: SYSCALL_US, wakeUs: 0 } },
    workload: {
      processes: [randomReader(0.2, { iodepth: 32, ioengine: 'libaio', ...extra })],
    },
    schedulers: ['none'],
  })
  const p = simulate(spec, 0, 0).processes[0]
  const iops = p.ops / p.seconds
  return {
    inFlight: (p.latencyMs.mean / 1000) * iops,
    meanUs: p.latencyMs.mean * 1000,
    cpuPerIoUs: (p.cpuSeconds * 1e6) / p.ops,
  }
}

describe("fio's reaping of asynchronous completions", () => {
  it('reaps one event per io_getevents by default: the whole depth stays in flight', () => {
    const one = run()
    expect(one.inFlight).toBeGreaterThan(31)
    expect(one.inFlight).toBeLessThan(32.5)
  })

  it('reaps a batch with iodepth_batch_complete_max: shorter clats, fewer in flight, fewer system calls', () => {
    const one = run()
    const batch = run({ iodepth_batch_complete_max: 32 })
    expect(batch.inFlight).toBeLessThan(one.inFlight - 3)
    expect(batch.meanUs).toBeLessThan(one.meanUs)
    // io_getevents once per batch, not once per I/O
    expect(one.cpuPerIoUs - batch.cpuPerIoUs).toBeGreaterThan(0.5 * SYSCALL_US)
  })

  it('says where a maximum below the minimum is', () => {
    const v = validateSpec({
      device: { preset: 'nullblk' },
      workload: {
        processes: [
          randomReader(1, {
            ioengine: 'libaio',
            iodepth: 8,
            iodepth_batch_complete_min: 4,
            iodepth_batch_complete_max: 2,
          }),
        ],
      },
      schedulers: ['none'],
    })
    expect(v.ok).toBe(false)
    expect(v.ok ? '' : formatIssues(v.issues)).toMatch(
      /processes\[0\]\.params\.iodepth_batch_complete_max: .*2 is below iodepth_batch_complete_min 4/,
    )
  })
})
