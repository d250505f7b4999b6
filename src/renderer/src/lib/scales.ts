// Linear or logarithmic axes: storage numbers span decades (a 10 MB/s reader beside a 1.7 GB/s
// writer, queue depths 1, 4, 16, 64), and on a linear axis everything below a tenth of the largest
// is a line on the floor. An axis is logarithmic when what it shows spans more than LOG_DECADES
// decades, unless the user picks one.
import { num } from '../../../shared/util/people-numbers'

/** What the user picked for an axis: the automatic choice, or one of the two. */
export type ScaleMode = 'auto' | 'linear' | 'log'

/** chart.js's name of the axis type. */
export type ScaleType = 'linear' | 'logarithmic'

/** Spans wider than this many decades (a factor of about 32) go on a log axis. */
export const LOG_DECADES = 1.5

/** Decades between the smallest and the largest positive finite value; 0 for fewer than two. */
export function spanDecades(values: Iterable<number>): number {
  let lo = Infinity
  let hi = 0
  for (const v of values)
    if (v > 0 && Number.isFinite(v)) {
      if (v < lo) lo = v
      if (v > hi) hi = v
    }
  return hi > lo ? Math.log10(hi / lo) : 0
}

/**
 * The typical size of a series: the median of its positive values (NaN when it has none). Idle
 * intervals and one burst do not move it, so a series' noise does not make an axis logarithmic,
 * only series of different sizes do.
 */
export function typical(values: Iterable<number>): number {
  const v = [...values].filter((x) => x > 0 && Number.isFinite(x)).sort((a, b) => a - b)
  if (!v.length) return NaN
  const m = v.length >> 1
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2
}

/** The axis type for what the user picked and the values the axis shows. */
export function scaleType(mode: ScaleMode, values: Iterable<number>): ScaleType {
  if (mode === 'linear') return 'linear'
  if (mode === 'log') return 'logarithmic'
  return spanDecades(values) > LOG_DECADES ? 'logarithmic' : 'linear'
}

/**
 * Where a log axis starts: the power of ten at least a factor of two below the smallest positive
 * value, so the smallest series (a bar, a line) stands clear of the floor rather than on it. (Left
 * to itself chart.js starts a log axis a decade below the largest value once any value is zero, an
 * idle interval, and hides everything smaller.) Undefined when there is no positive value.
 */
export function logFloor(values: Iterable<number>): number | undefined {
  let lo = Infinity
  for (const v of values) if (v > 0 && Number.isFinite(v) && v < lo) lo = v
  return Number.isFinite(lo) ? 10 ** Math.floor(Math.log10(lo / 2)) : undefined
}

/**
 * A log axis' tick label: the 1, 2 and 5 of each decade as people write them ("0.1", "20",
 * "5,000"), the ticks between them unlabelled. (chart.js's own gives "100.0" and "0.30" once an
 * axis goes below 1.)
 */
export function logTick(v: number): string {
  if (!(v > 0) || !Number.isFinite(v)) return ''
  const m = v / 10 ** Math.floor(Math.log10(v) + 1e-9)
  return [1, 2, 5].some((k) => Math.abs(m - k) < 1e-6) ? num(v) : ''
}
