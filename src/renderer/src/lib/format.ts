// Numbers as people read them: three significant figures, thousands separated, units spaced.
// num and bytes are shared with the command line (`iosched-lab devices` sizes as the app shows them).
import { exact, num } from '../../../shared/util/people-numbers'

export { bytes, change, changeFrom, num, significant, times } from '../../../shared/util/people-numbers'

export function withUnit(v: number | undefined, unit: string): string {
  return unit ? `${num(v)} ${unit}` : num(v)
}

export function seconds(s: number | null | undefined): string {
  if (s === null || s === undefined || !Number.isFinite(s)) return ''
  if (s < 60) return `${Math.ceil(s)} s`
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`
}

/**
 * A parameter's bounds as the setup shows them: every digit kept (they are limits, not
 * measurements), thousands grouped — `1…600,000`, `0…1,073,741,824`, `0.001…` — where the digits
 * ran together ("0…1073741824" wrapped at 1024 px); '' without bounds.
 */
export function boundsText(min: number | undefined, max: number | undefined): string {
  if (min === undefined && max === undefined) return ''
  const bound = (v: number | undefined): string => (v === undefined ? '' : exact(v))
  return `${bound(min)}…${bound(max)}`
}

/** A saved time as everywhere in the lab (`2026-12-05 23:08 UTC`), not in the browser's locale or zone. */
export { dateTime as when } from '../../../shared/util/date-time'
