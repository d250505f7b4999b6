// A blocked process's wake-up costs CPU (host `wakeUs`): charged each time it resumes, so a
// synchronous reader (one sleep per I/O) pays it on every I/O and an asynchronous one at QD32
// (which seldom sleeps) far less often.
import { describe, expect, it } from 'vitest'
import { simulate } from '../../src/shared/experiment/runner'
import { resolveSpec } from '../../src/shared/experiment/validate'

function run(wakeUs: number, iodepth: number) {
  const spec = resolveSpec({
    device: { preset: 'nullblk', overrides: { completionUs: 20, queueDepth: 256 } },
    host: { preset: 'linux-modern', overrides: { cpus: 2, wakeUs } },
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
            iodepth,
            ioengine: iodepth > 1 ? 'libaio' : 'psync',
            time_based: true,
            runtime: 0.2,
          },
        },
      ],
    },
    schedulers: ['none'],
  })
  const p = simulate(spec, 0, 0).processes[0]
  return { cpuPerIoUs: (p.cpuSeconds * 1e6) / p.ops, iops: p.ops / p.seconds }
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
})
