import type { SimTime } from '../sim/time'
import type { LagPreemption } from '../metrics/why'

/**
 * Per pid: [preemptions it made by its lag, times it was so preempted, ns it then waited, since
 * (−1: not waiting), wake-ups that found every CPU it could take busy].
 */
const SLOTS = 5

/**
 * EEVDF's wake-up preemptions by lag, counted per task (cpu.ts, eevdf-lag.ts): a task woken with
 * positive lag is placed that far behind the average vruntime (place_entity, PLACE_LAG), which can
 * make the running task ineligible within its slice, so the woken one preempts it at once
 * (check_preempt_wakeup_fair → pick_eevdf; kernel/sched/fair.c 6.6+). Each preemption counts for
 * the woken task and for the one it took the CPU from, with the time that one then waited
 * runnable, until it next ran. Numbers in one typed array by pid: a preemption or a dispatch costs
 * an index, not a lookup.
 */
export class LagPreemptions {
  private v = new Float64Array(SLOTS * 256)
  /** Preempted tasks still waiting to run again (a dispatch looks only while some are). */
  private open = 0

  private slot(pid: number): number {
    const i = pid * SLOTS
    if (i + SLOTS > this.v.length) {
      const old = this.v
      this.v = new Float64Array(Math.max(old.length * 2, i + SLOTS * 64))
      this.v.set(old)
      for (let k = old.length + 3; k < this.v.length; k += SLOTS) this.v[k] = -1
    }
    return i
  }

  constructor() {
    for (let k = 3; k < this.v.length; k += SLOTS) this.v[k] = -1
  }

  /** `pid` woke to a busy CPU: it preempts, or waits. */
  woke(pid: number): void {
    this.v[this.slot(pid) + 4]++
  }

  /** `by`, woken with its lag, took the CPU from `victim` at `now`. */
  preempted(by: number, victim: number, now: SimTime): void {
    this.v[this.slot(by)]++
    const i = this.slot(victim)
    this.v[i + 1]++
    if (this.v[i + 3] < 0) this.open++
    this.v[i + 3] = now
  }

  /** `pid` runs again at `now`: a wait after a preemption by lag ends. */
  ran(pid: number, now: SimTime): void {
    if (this.open === 0) return
    const i = pid * SLOTS
    if (i >= this.v.length || this.v[i + 3] < 0) return
    this.v[i + 2] += now - this.v[i + 3]
    this.v[i + 3] = -1
    this.open--
  }

  /** A task's counts at `now` (a wait still open counts up to now); undefined when it has none. */
  of(pid: number, now: SimTime): LagPreemption | undefined {
    const i = pid * SLOTS
    if (i >= this.v.length) return undefined
    const v = this.v
    if (v[i] === 0 && v[i + 1] === 0 && v[i + 4] === 0) return undefined
    return {
      busyWakeups: v[i + 4],
      preempts: v[i],
      preempted: v[i + 1],
      waitedNs: v[i + 2] + (v[i + 3] >= 0 ? now - v[i + 3] : 0),
    }
  }
}
