import { meanCi } from '../shared/report/mean-ci'

/** Plain-text tables for the terminal and for pasting into a mailing-list post. */
export function renderTable(header: string[], rows: string[][], align: ('l' | 'r')[] = []): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const cell = (s: string, i: number): string =>
    (align[i] ?? 'r') === 'l' ? s.padEnd(widths[i]) : s.padStart(widths[i])
  const line = (r: string[]): string => r.map(cell).join('  ').trimEnd()
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
}

/** A number with sensible significant digits for a table. */
export function num(x: number, digits = 3): string {
  if (!Number.isFinite(x)) return '-'
  const a = Math.abs(x)
  if (a === 0) return '0'
  if (a >= 1000) return Math.round(x).toString()
  const d = Math.max(0, digits - 1 - Math.floor(Math.log10(a)))
  return x.toFixed(Math.min(d, 6))
}

/**
 * "mean ± ci95" when there are repetitions — the interval at its one or two significant digits,
 * the mean to its place — else (one run, identical runs) the value.
 */
export function withCi(mean: number, ci: number, n: number, digits = 3): string {
  return meanCi({ n, mean, ci95: ci }, { plain: (x) => num(x, digits) })
}
