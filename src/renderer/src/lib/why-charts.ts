// The Why panel's charts as data: the stacked bars of a process's time per scheduler (one series
// per part of its time, in the part's colour), and which stage histograms have nothing to draw.
import type { LatencyHistogram } from '../../../shared/metrics/histogram'
import type { TimePart } from '../../../shared/metrics/why'
import { TIME_PART_COLOURS } from '../../../shared/report/palette'
import type { TimeRow } from '../../../shared/report/why-figures'
import { TIME_PART_NAME, usedParts } from '../../../shared/report/why-figures'

/** Seconds, or each scheduler's bar as a share of the process's time (100 % each). */
export type TimeUnit = 'seconds' | 'share'

export interface TimeSeries {
  /** The part's name, as the legend shows it. */
  label: string
  part: TimePart
  /** Per row: seconds, or % of the row's total. */
  data: number[]
  /** Per row: the part's seconds (for the tooltips, whichever the unit). */
  seconds: number[]
  backgroundColor: string
  borderColor: string
}

/** One series per part any row has time in; a row's bar is its rows' parts stacked. */
export function timeSeries(rows: readonly TimeRow[], unit: TimeUnit): TimeSeries[] {
  return usedParts(rows).map((part) => {
    const colour = TIME_PART_COLOURS[part]
    const seconds = rows.map((r) => r.time[part])
    return {
      label: TIME_PART_NAME[part],
      part,
      data: rows.map((r, i) => (unit === 'seconds' ? seconds[i] : share(seconds[i], r))),
      seconds,
      backgroundColor: colour,
      borderColor: colour,
    }
  })
}

/** A part as % of a row's parts together (so that the bar ends at 100). */
function share(s: number, r: TimeRow): number {
  const all = Object.values(r.time).reduce((a, x) => a + x, 0)
  return all > 0 ? (s / all) * 100 : 0
}

/** Whether a histogram says nothing on a log axis: no requests, or every one took no time. */
export const allZero = (h: LatencyHistogram | null): boolean => !h || h.count === 0 || h.max <= 0
