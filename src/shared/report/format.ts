import { meanCi } from './mean-ci'

/** A number with about `digits` significant digits, for tables; `-` for NaN or infinity. */
export function fmt(x: number, digits = 3): string {
  if (!Number.isFinite(x)) return '-'
  const a = Math.abs(x)
  if (a === 0) return '0'
  if (a >= 10 ** (digits + 1)) return Math.round(x).toString()
  const d = Math.max(0, digits - 1 - Math.floor(Math.log10(a)))
  return x.toFixed(Math.min(d, 6))
}

/**
 * "mean ± ci95" when there are repetitions — the interval at its one or two significant digits,
 * the mean to the same place — else (one run, identical runs) the value.
 */
export function fmtCi(mean: number, ci: number, n: number, digits = 3): string {
  return meanCi({ n, mean, ci95: ci }, { plain: (x) => fmt(x, digits) })
}

/** Fixed-width columns, two spaces apart; the first `left` columns left-aligned, the rest right. */
export function fixedWidth(header: string[], rows: string[][], left = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (r: string[]): string =>
    r
      .map((c, i) => (i < left ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd()
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
}
