import type { Program, Sys } from '../host/program'
import { MS } from '../sim/time'
import type { WorkloadType } from './workload'

/** A CPU-bound loop (`while(1);`), set its `nice` in the process spec. Does no I/O. */
class CpuHog implements Program {
  step(sys: Sys): void {
    sys.compute(10 * MS)
  }
  progress(): number {
    return NaN
  }
}

export const cpuHog: WorkloadType = {
  name: 'cpu-hog',
  summary: 'a CPU-bound loop with no I/O (nice it in the process spec)',
  params: [],
  files: () => [],
  openEnded: () => true,
  create: () => [{ suffix: '', program: new CpuHog() }],
}
