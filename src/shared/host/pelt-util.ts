import type { SimTime } from '../sim/time'
import { MS } from '../sim/time'

/**
 * PELT's utilization, as kernel/sched/pelt.c keeps it: the share of time running, averaged with
 * weights that halve every 32 ms (y^32 = 1/2, LOAD_AVG_PERIOD) — here continuously rather than in
 * 1 024 µs periods. One average per task and one per CPU (the time it ran anything).
 */
export const UTIL_HALF_LIFE: SimTime = 32 * MS
const DECAY_PER_NS = Math.LN2 / UTIL_HALF_LIFE

/** `util` as of `at`, decayed to `now`, with `ran` ns of running in between (ran ≤ now − at). */
export function utilAfter(util: number, at: SimTime, now: SimTime, ran: number): number {
  const dt = now - at
  if (dt <= 0) return util
  const keep = Math.exp(-dt * DECAY_PER_NS)
  return util * keep + Math.min(1, ran / dt) * (1 - keep)
}

/**
 * fits_capacity (kernel/sched/fair.c, 5.10+): a utilization fits a CPU with 20 % to spare,
 * `util × 1280 < capacity × 1024` — capacity 1 here.
 */
export const fitsCapacity = (util: number): boolean => util * 1280 < 1024

/** What the wake-up placement needs of a task's utilization. */
interface UtilTask {
  util?: number
  utilAt?: SimTime
}

/**
 * `pack`: the CPUs' and the tasks' utilization, and whether a woken task joins the CPU of what
 * woke it — a task's, or an interrupt's — rather than going back to its own: when the CPU's
 * utilization and the task's, as of its last run (wake_affine_weight reads the task's load as last
 * updated, at its dequeue), fit one CPU with a fifth to spare (fits_capacity): this VM kernel packs
 * tasks onto the vCPU that is awake rather than wake a halted one. Measured here (ftrace
 * sched_wakeup, sched_migrate_task and sched_switch):
 *  - 2026-12-07 (/work/runs/s15 mg1): a QD1 reader (~14 % of a CPU) held on CPU0 by its affinity,
 *    then let free, moved to the idle interrupt's CPU1 — which carried nothing but the disk's
 *    interrupts — at the first completion and stayed; the loop worker followed. Unheld, the reader,
 *    the worker and the completions ran on CPU1 99 % of the time in four 1 s traces (rr1–3, r4k),
 *    and a real-time QD1 reader, the worker and a QD64 writer's submissions mostly there too (rtw,
 *    2026-12-06: the workers 8 921 of 10 176 runs).
 *  - 2026-12-06 (/work/runs/s08/real, disk interrupts on CPU1, previous CPU CPU0): readers of a few
 *    per cent of a CPU went to CPU1 176 of 186, 9 of 10 and 67 of 75 times; a buffered writer using
 *    66 % of CPU0 stayed there 23 of 23 times, with CPU1 34 % busy (together more than 0.8).
 */
export class CpuUtil {
  private readonly util: number[]
  private readonly at: SimTime[]

  constructor(cpus: number) {
    this.util = new Array<number>(cpus).fill(0)
    this.at = new Array<number>(cpus).fill(0)
  }

  /** Task `t` ran `ran` ns on CPU `c`, up to `now`. */
  ran(c: number, t: UtilTask, ran: number, now: SimTime): void {
    t.util = utilAfter(t.util ?? 0, t.utilAt ?? now - ran, now, ran)
    t.utilAt = now
    this.util[c] = utilAfter(this.util[c], this.at[c], now, ran)
    this.at[c] = now
  }

  /**
   * `t` was forked and runs first on CPU `c`: post_init_entity_util_avg (kernel/sched/fair.c,
   * 4.7–6.18) starts a new task at half the CPU's spare capacity, `(capacity − util) / 2` — or at
   * the CPU's utilization per unit of its load, when that is less (here the CPU's load is its one
   * task's, so the cap is what applies) — and attaching it adds as much to the CPU's. So a process
   * that has just started counts as a heavy one: an interrupt's CPU where one runs has no room
   * for another's wake-up until their averages show what each really uses.
   */
  forked(c: number, t: UtilTask, now: SimTime): void {
    const cpu = utilAfter(this.util[c], this.at[c], now, 0)
    const u = Math.max(0, (1 - cpu) / 2)
    t.util = u
    t.utilAt = now
    this.util[c] = cpu + u
    this.at[c] = now
  }

  /** Whether `t` fits on CPU `c` now, whose burst under way (if any) began at `burstStart`. */
  fits(c: number, t: UtilTask, now: SimTime, burstStart: SimTime | null): boolean {
    const busy = burstStart === null ? 0 : now - Math.max(burstStart, this.at[c])
    const cpu = utilAfter(this.util[c], this.at[c], now, busy)
    return fitsCapacity(cpu + (t.util ?? 0))
  }
}
