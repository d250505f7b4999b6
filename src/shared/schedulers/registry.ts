import type { SchedulerType } from './scheduler'
import { noop } from './noop'
import { none } from './none'
import { deadline } from './deadline'
import { anticipatory } from './anticipatory'
import { mqDeadline } from './mq-deadline'
import { kyber } from './kyber/kyber'
import { cfq } from './cfq'
import { bfq } from './bfq'
import { row } from './row'
import { fcfs } from './fcfs'
import { sstf } from './sstf'
import { scan } from './scan'
import { look } from './look'
import { cLook } from './c-look'

/** Every scheduler the lab models: one file each, one line here. */
export const schedulers: readonly SchedulerType[] = [
  noop,
  none,
  deadline,
  anticipatory,
  cfq,
  bfq,
  mqDeadline,
  kyber,
  row,
  fcfs,
  sstf,
  scan,
  look,
  cLook,
]

/** Look a scheduler up by its name or a kernel alias (`none`, `as` …). */
export function findScheduler(name: string): SchedulerType | undefined {
  const n = name.toLowerCase()
  return schedulers.find((s) => s.name === n || s.aliases.includes(n))
}
