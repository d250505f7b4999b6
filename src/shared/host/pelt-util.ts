import type { SimTime } from '../sim/time'
import { MS } from '../sim/time'

/**
 * PELT's utilization, as kernel/sched/pelt.c keeps it: the share of time running, averaged with
 * weights that halve every 32 ms (y^32 = 1/2, LOAD_AVG_PERIOD) — here continuously rather than in
 * 1 024 µs periods. One average per task and one per CPU (the time it ran anything).
 */
export const UTIL_HALF_LIFE: SimTime = 32 * MS

/** `util` as of `at`, decayed to `now`, with `ran` ns of running in between (ran ≤ now − at). */
export function utilAfter(util: number, at: SimTime, now: SimTime, ran: number): number {
  const dt = now - at
  if (dt <= 0) return util
  const keep = Math.pow(0.5, dt / UTIL_HALF_LIFE)
  return util * keep + Math.min(1, ran / dt) * (1 - keep)
}

/**
 * fits_capacity (kernel/sched/fair.c, 5.10+): a utilization fits a CPU with 20 % to spare,
 * `util × 1280 < capacity × 1024` — capacity 1 here.
 */
export const fitsCapacity = (util: number): boolean => util * 1280 < 1024
