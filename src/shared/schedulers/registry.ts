import type { SchedulerType } from './scheduler'
import { noop } from './noop'
import { deadline } from './deadline'
import { anticipatory } from './anticipatory'
import { mqDeadline } from './mq-deadline'
import { kyber } from './kyber/kyber'

/** Every scheduler the lab models: one file each, one line here. */
export const schedulers: readonly SchedulerType[] = [noop, deadline, anticipatory, mqDeadline, kyber]

/** Look a scheduler up by its name or a kernel alias (`none`, `as` …). */
export function findScheduler(name: string): SchedulerType | undefined {
  const n = name.toLowerCase()
  return schedulers.find((s) => s.name === n || s.aliases.includes(n))
}
