import type { WorkloadType } from './workload'
import { dd } from './dd'
import { cat } from './cat'
import { randomRead } from './random-read'
import { fio } from './fio'
import { cpuHog } from './cpu-hog'
import { lmdd } from './lmdd'
import { iozone } from './iozone'
import { bonnie } from './bonnie'
import { traceReplay } from './trace-replay'
import { kbuild } from './kbuild'
import { efax, qsbench } from './memory-hogs'

/** Every workload the lab models: one file each, one line here. */
export const workloads: readonly WorkloadType[] = [
  dd,
  cat,
  randomRead,
  fio,
  cpuHog,
  lmdd,
  iozone,
  bonnie,
  traceReplay,
  kbuild,
  qsbench,
  efax,
]

export function findWorkload(name: string): WorkloadType | undefined {
  return workloads.find((w) => w.name === name)
}
