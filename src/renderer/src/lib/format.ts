// Numbers as people read them: three significant figures, thousands separated, units spaced.
// num and bytes are shared with the command line (`iosched-lab devices` sizes as the app shows them).
import { num } from '../../../shared/util/people-numbers'

export { bytes, change, changeFrom, num, significant, times } from '../../../shared/util/people-numbers'

export function withUnit(v: number | undefined, unit: string): string {
  return unit ? `${num(v)} ${unit}` : num(v)
}

export function seconds(s: number | null | undefined): string {
  if (s === null || s === undefined || !Number.isFinite(s)) return ''
  if (s < 60) return `${Math.ceil(s)} s`
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`
}

/** A saved time as everywhere in the lab (`2026-12-05 23:08 UTC`), not in the browser's locale or zone. */
export { dateTime as when } from '../../../shared/util/date-time'
