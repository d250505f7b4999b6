import type { CpuTask } from './cpu-params'

/**
 * EEVDF's lag and eligibility (kernel/sched/fair.c, Linux 6.6+), for the CPU scheduler (cpu.ts):
 * the load-weighted average vruntime of the tasks running or runnable (avg_vruntime), the lag a
 * task keeps while it sleeps (update_entity_lag), where it comes back (place_entity, PLACE_LAG),
 * and whether the running task is still eligible once it has (entity_eligible). The running
 * tasks' shares are counted as of their bursts' start; the caller adds their progress since
 * (`live`, load-weighted ns).
 */
export class EevdfLag {
  private sumW = 0
  private sumWV = 0
  /** avg_vruntime as the last waking task joined it (the preemption checks of that wake-up). */
  private joinedAvg = 0

  /** `limit`: the most lag kept either way, ns of a nice-0 task (twice the slice). */
  constructor(private readonly limit: number) {}

  /** A running task ran `ns` more (its vruntime grew by ns × 1024 / weight). */
  ran(ns: number): void {
    this.sumWV += ns * 1024
  }

  private avg(live: number): number {
    return (this.sumWV + live) / this.sumW
  }

  /**
   * place_entity with PLACE_LAG: a waking task comes back at the average less the lag it had when
   * it slept — ahead of the others if it had run less than its share — and joins the average.
   * With nobody else there, its own vruntime stands (at least `floor`, the least one seen).
   */
  place(t: CpuTask, live: number, floor: number): void {
    if (this.sumW > 0) t.vruntime = this.avg(live) - t.vlag
    else if (t.vruntime < floor) t.vruntime = floor
    this.sumW += t.weight
    this.sumWV += t.weight * t.vruntime
    this.joinedAvg = this.avg(live)
  }

  /**
   * A task goes to sleep: it keeps avg_vruntime − vruntime, at most `limit`, and leaves the
   * average. (DELAY_DEQUEUE, 6.12+, holds a task with negative lag until it has none: the model
   * keeps no negative lag instead.)
   */
  leave(t: CpuTask, live: number): void {
    const lag = this.sumW > 0 ? this.avg(live) - t.vruntime : 0
    t.vlag = Math.max(0, Math.min(this.limit, lag))
    this.sumW -= t.weight
    this.sumWV -= t.weight * t.vruntime
    if (this.sumW <= 0) this.sumW = this.sumWV = 0
  }

  /**
   * entity_eligible for the running task at vruntime `v` once `t` has joined: its vruntime is at
   * most the average. A task that is not is no longer protected by RUN_TO_PARITY: the woken one,
   * ahead of it, preempts at once (check_preempt_wakeup_fair → pick_eevdf).
   */
  eligible(v: number, t: CpuTask): boolean {
    return v <= this.joinedAvg || this.sumW <= t.weight
  }
}
