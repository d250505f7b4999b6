// Numbers as people read them, the same in the app and on the command line: three significant
// figures, thousands separated; sizes in binary units (KiB, MiB, GiB), as lsblk and the kernel
// count them.

/** Three significant figures (`digits`), thousands separated; `–` for a missing value. */
export function num(v: number | undefined | null, digits = 3): string {
  if (v === undefined || v === null || Number.isNaN(v)) return '–'
  if (!Number.isFinite(v)) return v > 0 ? '∞' : '−∞'
  if (v === 0) return '0'
  const a = Math.abs(v)
  if (a >= 10 ** digits) return Math.round(v).toLocaleString('en-US')
  if (a < 0.001) return v.toExponential(1)
  return Number(v.toPrecision(digits)).toString()
}

/**
 * A limit as people read it: every digit kept (a bound is exact, not a measurement), thousands
 * grouped — `600,000`, `1,073,741,824`, `0.001` — where the digits ran together.
 */
export function exact(v: number): string {
  return v.toLocaleString('en-US', { maximumFractionDigits: 20 })
}

/**
 * A time given in milliseconds as people read it: `738 ms`, `6.01 ms`, `0.13 ms`; under 0.1 ms in
 * microseconds (`1.44 µs`, `0.85 µs`), not `0.00144 ms` or `8.5e-4 ms`.
 */
export function millis(ms: number): string {
  return ms !== 0 && Math.abs(ms) < 0.1 ? `${num(ms * 1000)} µs` : `${num(ms)} ms`
}

/** A size in bytes in the largest binary unit below it: `512 B`, `4 KiB`, `256 MiB`, `256 GiB`. */
export function bytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let i = 0
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024
    i++
  }
  return `${num(n)} ${units[i]}`
}

/**
 * A ratio as a factor, always to two decimals so that a column of them lines up and reads alike
 * (`0.31×`, `1.00×`, `12.40×`, `1,234.00×`; not `1×` beside `0.97×`); `–` for a missing value.
 */
export function times(v: number | undefined | null): string {
  if (v === undefined || v === null || Number.isNaN(v)) return '–'
  if (!Number.isFinite(v)) return v > 0 ? '∞' : '−∞'
  return `${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}×`
}

/**
 * `digits` significant figures with their trailing zeros kept — `1.0`, `0.10`, `14`, `0.047` at
 * two — so that a column of ratios has one precision (not `1` beside `0.89`); thousands grouped
 * from 10^digits on, `–` for a missing value.
 */
export function significant(v: number | undefined | null, digits = 2): string {
  if (v === undefined || v === null || Number.isNaN(v)) return '–'
  if (!Number.isFinite(v)) return v > 0 ? '∞' : '−∞'
  if (v === 0) return '0'
  const a = Math.abs(v)
  if (a < 0.001) return v.toExponential(digits - 1)
  const p = v.toPrecision(digits)
  return Math.abs(Number(p)) >= 10 ** digits ? Math.round(v).toLocaleString('en-US') : p
}

/** Above this increase, in percent, a difference reads as a factor of the baseline. */
export const FACTOR_ABOVE_PERCENT = 100

/**
 * A difference from a baseline (in percent of it), as every comparison shows it — the app's and
 * the library's, `sessions compare` and the reports: with its sign (`+12.3 %`, `−45 %`, `±0 %`)
 * up to twice the baseline; beyond, as the factor of the baseline it is (`66.3×`, not
 * `+6,525 %`), as storage people say "66 times faster". A decrease stays a percentage (at most
 * −100 % for a positive figure). Empty for a missing or undefined difference.
 */
export function change(diffPercent: number | null | undefined): string {
  const d = diffPercent
  if (d === null || d === undefined || !Number.isFinite(d)) return ''
  if (d > FACTOR_ABOVE_PERCENT) return `${num(1 + d / 100)}×`
  return `${d > 0 ? '+' : d < 0 ? '−' : '±'}${num(Math.abs(d))} %`
}

/**
 * `value`'s difference from `baseline` as change() writes it (the results table's, against its
 * baseline row, as the library's compare against its baseline set); empty when the baseline is 0.
 */
export const changeFrom = (value: number, baseline: number): string =>
  change(baseline !== 0 ? ((value - baseline) / Math.abs(baseline)) * 100 : NaN)
