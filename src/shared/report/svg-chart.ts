import { escapeHtml } from './escape'
import { markOf } from './marks'

/** One line of a chart: (x, y) points in data units. */
export interface ChartSeries {
  name: string
  colour: string
  /** Its mark (marks.ts): a dash on the line, a marker in the legend; 0 or none plain. */
  mark?: number
  points: Array<[number, number]>
}

export interface LineChart {
  title: string
  xLabel: string
  yLabel: string
  series: ChartSeries[]
  /** Logarithmic x axis (latency CDFs); points with x ≤ 0 are left out. */
  logX?: boolean
  /** Fixed y range (a CDF: 0 … 1); default 0 … the largest y. */
  yMax?: number
  width?: number
  height?: number
}

/** A legend's names are cut (…) beyond this many characters; the chart narrows for up to this many. */
const LEGEND_MAX_CHARS = 36

/** Most points drawn per line: enough for a 900-pixel-wide chart. */
const MAX_POINTS = 900

/**
 * A line chart as a self-contained SVG element: axes with ticks, one polyline per series, a
 * legend. Every text is escaped; nothing outside the element is needed to view it.
 */
export function lineChart(c: LineChart): string {
  // the legend as wide as its longest name needs (about 6.2 px a character), within reason
  const longest = Math.max(0, ...c.series.map((s) => s.name.length + (s.points.length === 0 ? 10 : 0)))
  const legendChars = Math.min(LEGEND_MAX_CHARS, Math.max(18, longest))
  const m = { left: 64, right: Math.round(44 + legendChars * 6.2), top: 30, bottom: 46 }
  // by default a plot 496 px wide, whatever the legend's width
  const W = c.width ?? m.left + 496 + m.right
  const H = c.height ?? 320
  const pw = W - m.left - m.right
  const ph = H - m.top - m.bottom
  const tx = (x: number): number => (c.logX ? Math.log10(x) : x)
  const series = c.series.map((s) => ({
    ...s,
    points: decimate(
      s.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y) && (!c.logX || x > 0)),
    ),
  }))
  const xs = series.flatMap((s) => s.points.map(([x]) => tx(x)))
  const ys = series.flatMap((s) => s.points.map(([, y]) => y))
  let x0 = xs.length > 0 ? Math.min(...xs) : 0
  let x1 = xs.length > 0 ? Math.max(...xs) : 1
  if (x1 <= x0) {
    x0 -= 0.5
    x1 += 0.5
  }
  const y0 = 0
  let y1 = c.yMax ?? (ys.length > 0 ? Math.max(...ys) * 1.05 : 1)
  if (!(y1 > y0)) y1 = 1
  const px = (x: number): number => m.left + ((tx(x) - x0) / (x1 - x0)) * pw
  const py = (y: number): number => m.top + ph - ((y - y0) / (y1 - y0)) * ph
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${escapeHtml(c.title)}" font-family="sans-serif" font-size="11">`,
    `<title>${escapeHtml(c.title)}</title>`,
    `<rect class="bg" x="0" y="0" width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${m.left}" y="18" font-size="13" font-weight="bold">${escapeHtml(c.title)}</text>`,
  ]
  // y ticks and grid
  for (const v of ticks(y0, y1)) {
    const y = r(py(v))
    parts.push(`<line x1="${m.left}" y1="${y}" x2="${m.left + pw}" y2="${y}" stroke="#e5e5e5" class="grid"/>`)
    parts.push(`<text x="${m.left - 6}" y="${y + 4}" text-anchor="end">${escapeHtml(tickLabel(v))}</text>`)
  }
  // x ticks
  const xt = c.logX ? logTicks(x0, x1) : ticks(x0, x1)
  for (const v of xt) {
    const x = r(c.logX ? m.left + ((Math.log10(v) - x0) / (x1 - x0)) * pw : px(v))
    parts.push(
      `<line x1="${x}" y1="${m.top + ph}" x2="${x}" y2="${m.top + ph + 4}" stroke="#333" class="axis"/>`,
    )
    parts.push(
      `<text x="${x}" y="${m.top + ph + 16}" text-anchor="middle">${escapeHtml(tickLabel(v))}</text>`,
    )
  }
  parts.push(
    `<rect x="${m.left}" y="${m.top}" width="${pw}" height="${ph}" fill="none" stroke="#333" class="axis"/>`,
    `<text x="${m.left + pw / 2}" y="${H - 8}" text-anchor="middle">${escapeHtml(c.xLabel)}</text>`,
    `<text transform="translate(14 ${m.top + ph / 2}) rotate(-90)" text-anchor="middle">${escapeHtml(c.yLabel)}</text>`,
  )
  series.forEach((s, i) => {
    if (s.points.length > 0) {
      const pts = s.points.map(([x, y]) => `${r(px(x))},${r(py(y))}`).join(' ')
      parts.push(
        `<polyline fill="none" stroke="${escapeHtml(s.colour)}" stroke-width="1.5"${dashOf(s.mark)} points="${pts}"><title>${escapeHtml(s.name)}</title></polyline>`,
      )
    }
    const ly = m.top + 8 + i * 16
    parts.push(
      `<line x1="${m.left + pw + 8}" y1="${ly}" x2="${m.left + pw + 34}" y2="${ly}" stroke="${escapeHtml(s.colour)}" stroke-width="${s.mark ? 2 : 3}"${dashOf(s.mark)}/>`,
      ...markerAt(s.mark, m.left + pw + 21, ly, s.colour),
      `<text x="${m.left + pw + 38}" y="${ly + 4}">${escapeHtml(clip(s.name, LEGEND_MAX_CHARS))}${s.points.length === 0 ? ' (no data)' : ''}</text>`,
    )
  })
  if (series.every((s) => s.points.length === 0))
    parts.push(
      `<text x="${m.left + pw / 2}" y="${m.top + ph / 2}" text-anchor="middle" fill="#777">no data</text>`,
    )
  parts.push('</svg>')
  return parts.join('\n')
}

/** A line's stroke-dasharray for a mark, or nothing for a plain one. */
const dashOf = (mark = 0): string => (mark ? ` stroke-dasharray="${markOf(mark).dash.join(' ')}"` : '')

/** A legend's marker for a mark (none for a plain one), centred on (x, y), about 8 px. */
function markerAt(mark: number | undefined, x: number, y: number, colour: string): string[] {
  if (!mark) return []
  const c = escapeHtml(colour)
  const p = (pts: number[][]): string =>
    `<polygon fill="${c}" points="${pts.map(([dx, dy]) => `${r(x + dx)},${r(y + dy)}`).join(' ')}"/>`
  switch (markOf(mark).point) {
    case 'triangle':
      return [
        p([
          [0, -4.5],
          [4.5, 3.5],
          [-4.5, 3.5],
        ]),
      ]
    case 'circle':
      return [`<circle cx="${x}" cy="${y}" r="4" fill="${c}"/>`]
    case 'rectRot':
      return [
        p([
          [0, -5],
          [5, 0],
          [0, 5],
          [-5, 0],
        ]),
      ]
    default:
      return [
        `<path d="M${x - 4} ${y - 4}L${x + 4} ${y + 4}M${x + 4} ${y - 4}L${x - 4} ${y + 4}" stroke="${c}" stroke-width="2.5"/>`,
      ]
  }
}

/** A tick value as short as it can be: 0.8, 20, 0.001, 1e+6. */
const tickLabel = (v: number): string => String(Number(v.toPrecision(6)))

const r = (x: number): number => Math.round(x * 10) / 10
const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s)

/** Every k-th point so that at most MAX_POINTS remain, the last one always kept. */
function decimate(points: Array<[number, number]>): Array<[number, number]> {
  if (points.length <= MAX_POINTS) return points
  const step = Math.ceil(points.length / MAX_POINTS)
  const out = points.filter((_, i) => i % step === 0)
  if (out[out.length - 1] !== points[points.length - 1]) out.push(points[points.length - 1])
  return out
}

/** About five round tick values between a and b. */
export function ticks(a: number, b: number, n = 5): number[] {
  const span = b - a
  if (!(span > 0) || !Number.isFinite(span)) return [a]
  const raw = span / n
  const p = 10 ** Math.floor(Math.log10(raw))
  // a bound a rounding error past a round one (100.00000000000001 %, x · 100 / x) keeps its step
  const step = [1, 2, 5, 10].map((k) => k * p).find((s) => s >= raw * (1 - 1e-9)) ?? 10 * p
  const out: number[] = []
  for (let k = Math.ceil(a / step); k * step <= b + step * 1e-9; k++)
    out.push(Number((k * step).toPrecision(12)))
  return out
}

/**
 * Round ticks between 10^a and 10^b (log10 bounds): the powers of ten; over less than three decades
 * also 2× and 5× them; over less than one, round values as on a linear axis — never the bound itself
 * unrounded (a CDF from 0.103423 ms).
 */
export function logTicks(a: number, b: number): number[] {
  const within = (v: number): boolean => Math.log10(v) >= a - 1e-9 && Math.log10(v) <= b + 1e-9
  const steps = b - a < 3 ? [1, 2, 5] : [1]
  const out: number[] = []
  for (let k = Math.floor(a); k <= Math.ceil(b); k++)
    for (const s of steps) {
      const v = Number((s * 10 ** k).toPrecision(12))
      if (within(v)) out.push(v)
    }
  if (out.length >= 2) return out
  return ticks(10 ** a, 10 ** b, 4).filter((v) => v > 0)
}

/** Horizontal bars, one per row, each stacked from its parts (a process's time per scheduler). */
export interface StackedBars {
  title: string
  xLabel: string
  /** The parts every bar is stacked from, in order, with their colours (the legend). */
  parts: { name: string; colour: string }[]
  /** One bar per row: its name and a value per part (≥ 0). */
  rows: { name: string; values: number[] }[]
  width?: number
}

/** Most characters of a row's name beside its bar. */
const ROW_NAME_MAX_CHARS = 28

/**
 * A horizontal stacked bar chart as a self-contained SVG element: a bar per row, its parts in
 * their colours from zero, each part titled with its value; the legend above the bars, a linear
 * axis below. Every text is escaped.
 */
export function stackedBarChart(c: StackedBars): string {
  const nameChars = Math.min(ROW_NAME_MAX_CHARS, Math.max(4, ...c.rows.map((r) => r.name.length)))
  const bar = 20
  const step = 30
  const m = { left: Math.round(16 + nameChars * 6.6), right: 24, top: 58, bottom: 46 }
  const W = c.width ?? 760
  const pw = W - m.left - m.right
  const ph = Math.max(1, c.rows.length) * step
  const H = m.top + ph + m.bottom
  const totals = c.rows.map((r) => r.values.reduce((a, v) => a + (Number.isFinite(v) && v > 0 ? v : 0), 0))
  let x1 = Math.max(0, ...totals) * 1.02
  if (!(x1 > 0)) x1 = 1
  const px = (x: number): number => m.left + (x / x1) * pw
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${escapeHtml(c.title)}" font-family="sans-serif" font-size="11">`,
    `<title>${escapeHtml(c.title)}</title>`,
    `<rect class="bg" x="0" y="0" width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${m.left}" y="18" font-size="13" font-weight="bold">${escapeHtml(c.title)}</text>`,
  ]
  // the legend, in a row above the bars
  let lx = m.left
  for (const p of c.parts) {
    parts.push(
      `<rect x="${lx}" y="33" width="10" height="10" fill="${escapeHtml(p.colour)}"/>`,
      `<text x="${lx + 14}" y="42">${escapeHtml(p.name)}</text>`,
    )
    lx += 26 + p.name.length * 6.4
  }
  for (const v of ticks(0, x1)) {
    const x = r(px(v))
    parts.push(
      `<line x1="${x}" y1="${m.top}" x2="${x}" y2="${m.top + ph}" stroke="#e5e5e5" class="grid"/>`,
      `<text x="${x}" y="${m.top + ph + 16}" text-anchor="middle">${escapeHtml(tickLabel(v))}</text>`,
    )
  }
  c.rows.forEach((row, i) => {
    const y = m.top + i * step + (step - bar) / 2
    parts.push(
      `<text x="${m.left - 8}" y="${r(y + bar / 2 + 4)}" text-anchor="end">${escapeHtml(clip(row.name, ROW_NAME_MAX_CHARS))}</text>`,
    )
    let at = 0
    row.values.forEach((v, k) => {
      if (!(Number.isFinite(v) && v > 0)) return
      const p = c.parts[k]
      parts.push(
        `<rect x="${r(px(at))}" y="${r(y)}" width="${Math.max(0.5, r(px(at + v) - px(at)))}" height="${bar}" fill="${escapeHtml(p.colour)}"><title>${escapeHtml(`${row.name}, ${p.name}: ${tickLabel(Number(v.toPrecision(3)))}`)}</title></rect>`,
      )
      at += v
    })
  })
  parts.push(
    `<line x1="${m.left}" y1="${m.top}" x2="${m.left}" y2="${m.top + ph}" stroke="#333" class="axis"/>`,
    `<line x1="${m.left}" y1="${m.top + ph}" x2="${m.left + pw}" y2="${m.top + ph}" stroke="#333" class="axis"/>`,
    `<text x="${m.left + pw / 2}" y="${H - 8}" text-anchor="middle">${escapeHtml(c.xLabel)}</text>`,
  )
  if (c.rows.length === 0)
    parts.push(
      `<text x="${m.left + pw / 2}" y="${m.top + ph / 2 + 4}" text-anchor="middle" fill="#777">no data</text>`,
    )
  parts.push('</svg>')
  return parts.join('\n')
}
