/**
 * Seek curves: how long the actuator takes to move the heads `d` cylinders and settle there.
 * Pure functions, so tests (and the UI's curve plot) can evaluate them directly.
 *
 * Two forms, after Ruemmler & Wilkes (1994) and DiskSim:
 *  - a two-piece formula: `a + b·√u` for short seeks (u ≤ boundary), `c + e·u` for long ones, where
 *    u is either the distance in cylinders or the fraction d / cylinders of the full stroke;
 *  - a table of measured (distance in cylinders, ms) points, interpolated linearly (extrapolated
 *    flat past the last point).
 * A distance of 0 is no seek at all (0 ms) in both forms.
 */

export type SeekUnit = 'cylinders' | 'fraction'

export interface SeekFormula {
  readonly kind: 'formula'
  /** What the distance is measured in. */
  readonly unit: SeekUnit
  /** Largest short-seek distance (in `unit`). */
  readonly boundary: number
  readonly a: number
  readonly b: number
  readonly c: number
  readonly e: number
}

export interface SeekTable {
  readonly kind: 'table'
  /** Distances in cylinders, strictly increasing, first > 0. */
  readonly distances: readonly number[]
  readonly ms: readonly number[]
}

export type SeekCurve = SeekFormula | SeekTable

/** The curve fitted to the Hitachi 7K500 figures (reference §9): 1.0 ms single track, 20 ms full stroke, 8.5 ms mean. */
export const FITTED_7200: SeekFormula = {
  kind: 'formula',
  unit: 'fraction',
  boundary: 0.108,
  a: 1.0,
  b: 11.26,
  c: 2.85,
  e: 17.15,
}

/** Ruemmler & Wilkes' HP 97560 (1962 cylinders): d ≤ 383: 3.24 + 0.400·√d, else 8.00 + 0.008·d ms. */
export const HP_97560: SeekFormula = {
  kind: 'formula',
  unit: 'cylinders',
  boundary: 383,
  a: 3.24,
  b: 0.4,
  c: 8.0,
  e: 0.008,
}

/** Seek time in ms for a move of `distance` cylinders on a disk of `cylinders` cylinders. */
export function seekTimeMs(curve: SeekCurve, distance: number, cylinders: number): number {
  const d = Math.abs(distance)
  if (d === 0) return 0
  if (curve.kind === 'formula') {
    const u = curve.unit === 'fraction' ? d / cylinders : d
    return u <= curve.boundary ? curve.a + curve.b * Math.sqrt(u) : curve.c + curve.e * u
  }
  const xs = curve.distances
  const ys = curve.ms
  if (d <= xs[0]) return ys[0]
  for (let i = 1; i < xs.length; i++) {
    if (d <= xs[i]) return ys[i - 1] + ((ys[i] - ys[i - 1]) * (d - xs[i - 1])) / (xs[i] - xs[i - 1])
  }
  return ys[ys.length - 1]
}

/**
 * Mean seek time over random seeks with both end points uniform over the cylinders (the figure a
 * datasheet quotes as "average seek"): numerically, E[seek(|X−Y|)] with density 2(1−x) on x=d/C.
 */
export function meanSeekMs(curve: SeekCurve, cylinders: number, steps = 20000): number {
  let sum = 0
  let wsum = 0
  for (let i = 0; i < steps; i++) {
    const x = (i + 0.5) / steps
    const w = 2 * (1 - x)
    sum += w * seekTimeMs(curve, Math.max(1, Math.round(x * cylinders)), cylinders)
    wsum += w
  }
  return sum / wsum
}

/**
 * Parse a seek table written as `distance:ms` pairs, e.g. `"1:0.8, 100:2.1, 10000:9, 60000:18"`.
 * Returns an error message instead when it is malformed.
 */
export function parseSeekTable(text: string): SeekTable | string {
  const distances: number[] = []
  const ms: number[] = []
  for (const part of text.split(',')) {
    const m = /^\s*(\d+(?:\.\d+)?)\s*:\s*(\d+(?:\.\d+)?)\s*$/.exec(part)
    if (!m) return `expected "distance:ms, …" pairs, got ${JSON.stringify(part.trim())}`
    const d = parseFloat(m[1])
    const t = parseFloat(m[2])
    if (d <= 0) return 'seek table distances must be > 0 (distance 0 is no seek)'
    if (distances.length && d <= distances[distances.length - 1])
      return 'seek table distances must be strictly increasing'
    distances.push(d)
    ms.push(t)
  }
  if (distances.length === 0) return 'empty seek table'
  return { kind: 'table', distances, ms }
}
