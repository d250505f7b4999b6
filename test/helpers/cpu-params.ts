import type { CpuParams } from '../../src/shared/host/cpu'
import { MS } from '../../src/shared/sim/time'

/**
 * CPU scheduler parameters for tests of where and when woken tasks run: `cpus` CPUs under EEVDF
 * with this lab machine's slice (base_slice 0.75 ms × 2 for 2 CPUs), the other policies' figures
 * their defaults; `extra` adds packing, idle latencies and the like.
 */
export const testCpuParams = (cpus: number, extra: Partial<CpuParams> = {}): CpuParams => ({
  cpus,
  policy: 'eevdf',
  quantum: 50 * MS,
  latency: 6 * MS,
  minGranularity: 1.5 * MS,
  wakeupGranularity: 1 * MS,
  ...extra,
})

/** What every test task has of a CpuTask before it runs: not on a CPU, no history, nice 0. */
export abstract class TestTask {
  cpuWork = 0
  cpuTime = 0
  onCpu = -1
  lastCpu = -1
  wantCpu = -1
  vlag = 0
  readonly weight = 1024
}
