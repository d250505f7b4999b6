// A host whose kernel packs woken tasks onto their waker's CPU (host `wakePacking`): the loop
// device's worker, woken by the queue run a submitter kicked, waits for the submitter's CPU instead
// of taking the idle one — so the submitter's CPU and the worker's add up per I/O, as measured on
// this lab machine (a QD32 fio reader, the loop worker and the completions all on one vCPU), where
// a host that spreads them runs the two side by side.
import { describe, expect, it } from 'vitest'
import { simulate } from '../../src/shared/experiment/runner'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { randomReader } from '../helpers/fio-process'

const PATH_US = 6
const SYSCALL_US = 3

function run(wakePacking: boolean, scheduler = 'none') {
  const spec = resolveSpec({
    device: {
      preset: 'loop-dio-virtio',
      overrides: {
        backingScheduler: '',
        readServiceUs: '0:4, 100:4',
        readContentionUs: 0.2,
        signalPerPass: false,
        stallEveryMs: 0,
        pathUs: PATH_US,
        pathThreads: 1,
      },
    },
    host: {
      preset: 'linux-modern',
      overrides: {
        cpus: 2,
        cpuPolicy: 'eevdf',
        minGranularityMs: 1.5,
        syscallUs: SYSCALL_US,
        wakeUs: 1,
        wakePacking,
      },
    },
    workload: {
      processes: [randomReader(0.2, { iodepth: 32, ioengine: 'libaio' })],
    },
    schedulers: [scheduler],
  })
  const p = simulate(spec, 0, 0).processes[0]
  return { iops: p.ops / p.seconds, fioCpuUs: (p.cpuSeconds * 1e6) / p.ops }
}

describe('packing woken tasks onto their waker’s CPU', () => {
  for (const scheduler of ['none', 'mq-deadline']) {
    it(`puts the loop worker on the submitter's CPU under ${scheduler}: their CPU per I/O adds up`, () => {
      const spread = run(false, scheduler)
      const packed = run(true, scheduler)
      // one CPU does both: no faster than the two costs in a row allow
      const serial = 1e6 / (packed.fioCpuUs + PATH_US)
      expect(packed.iops).toBeLessThan(serial * 1.02)
      expect(packed.iops).toBeGreaterThan(serial * 0.8)
      // spread over two CPUs, the worker runs beside the submitter: well beyond that bound
      expect(spread.iops).toBeGreaterThan((1e6 / (spread.fioCpuUs + PATH_US)) * 1.2)
    })
  }
})
