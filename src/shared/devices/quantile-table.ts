import type { ParamIssue } from '../util/params'

/**
 * A distribution as a table of quantiles, "percent:value, …" (e.g. "0:40, 50:72, 99:900, 100:4000"
 * in µs): the measured shape of a device's service time, as a fingerprint reads it off fio's
 * latency histogram. Drawn by inverting the CDF, linearly between knots; the same uniform draw
 * gives the same value, so a seeded stream of draws is deterministic.
 */
export class QuantileTable {
  /** Percents, ascending, from 0 to 100. */
  readonly p: Float64Array
  /** Values at those percents, non-decreasing. */
  readonly v: Float64Array

  constructor(points: readonly (readonly [number, number])[]) {
    this.p = Float64Array.from(points.map((x) => x[0]))
    this.v = Float64Array.from(points.map((x) => x[1]))
  }

  /** The value at percent q (0…100). */
  at(q: number): number {
    const p = this.p
    const v = this.v
    if (q <= p[0]) return v[0]
    const n = p.length
    if (q >= p[n - 1]) return v[n - 1]
    let lo = 0
    let hi = n - 1
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1
      if (p[mid] <= q) lo = mid
      else hi = mid
    }
    const f = (q - p[lo]) / (p[hi] - p[lo])
    return v[lo] + f * (v[hi] - v[lo])
  }

  /** A draw for the uniform number u in [0, 1). */
  draw(u: number): number {
    return this.at(u * 100)
  }

  /** The mean of the distribution (trapezoids between knots). */
  mean(): number {
    let s = 0
    for (let i = 1; i < this.p.length; i++)
      s += ((this.p[i] - this.p[i - 1]) / 100) * ((this.v[i] + this.v[i - 1]) / 2)
    return s
  }

  /** A table with each value replaced by f(value, percent), kept non-decreasing. */
  map(f: (v: number, p: number) => number): QuantileTable {
    let last = 0
    return new QuantileTable(
      [...this.p].map((p, i) => {
        last = Math.max(last, f(this.v[i], p))
        return [p, last] as const
      }),
    )
  }

  toString(): string {
    return [...this.p].map((p, i) => `${round(p)}:${round(this.v[i])}`).join(', ')
  }
}

const round = (x: number): number => Math.round(x * 1000) / 1000

/**
 * Parse "percent:value, …". Percents from 0 to 100 inclusive (both ends present), increasing;
 * values finite, ≥ 0, non-decreasing. Problems go to `issues` at `path`; null then.
 */
export function parseQuantileTable(text: string, path: string, issues: ParamIssue[]): QuantileTable | null {
  const points: [number, number][] = []
  const before = issues.length
  for (const [i, part] of text.split(',').entries()) {
    const m = /^\s*(\d+(?:\.\d+)?)\s*:\s*(\d+(?:\.\d+)?(?:e[+-]?\d+)?)\s*$/i.exec(part)
    if (!m) {
      issues.push({
        path,
        message: `point ${i + 1} ("${part.trim()}"): expected "percent:value", e.g. "50:72"`,
      })
      continue
    }
    points.push([Number(m[1]), Number(m[2])])
  }
  if (issues.length > before) return null
  if (points.length < 2) {
    issues.push({ path, message: 'needs at least two points, "0:…" and "100:…"' })
    return null
  }
  if (points[0][0] !== 0 || points[points.length - 1][0] !== 100)
    issues.push({ path, message: 'the first point must be at 0 % and the last at 100 %' })
  for (let i = 1; i < points.length; i++) {
    if (points[i][0] <= points[i - 1][0])
      issues.push({ path, message: `percents must increase: ${points[i - 1][0]} then ${points[i][0]}` })
    if (points[i][1] < points[i - 1][1])
      issues.push({
        path,
        message: `values must not decrease: ${points[i - 1][1]} at ${points[i - 1][0]} % then ${points[i][1]} at ${points[i][0]} %`,
      })
  }
  return issues.length > before ? null : new QuantileTable(points)
}
