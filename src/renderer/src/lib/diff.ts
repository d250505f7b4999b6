// A difference from a baseline, as the library shows it: a sign always (± for none), the value
// with three significant figures, and a percent sign.
import { num } from './format'

export function signedPercent(d: number | null | undefined): string {
  if (d === null || d === undefined || !Number.isFinite(d)) return ''
  return `${d > 0 ? '+' : d < 0 ? '−' : '±'}${num(Math.abs(d))} %`
}
