import type { RunResult } from '../experiment/result'
import { mean } from '../metrics/stats'
import type { Claim, ClaimVerdict, MetricRef } from './types'

/** The runs of one variant: one entry per swept value (or a single entry). */
export interface VariantRuns {
  value?: unknown
  runs: RunResult[]
}
export type GalleryRuns = Record<string, VariantRuns[]>

/** Describe a metric reference for people: `main/deadline reader seconds`. */
export function describeRef(r: MetricRef): string {
  const where = [r.variant + (r.value !== undefined ? `[${r.value}]` : ''), r.label].join('/')
  return [where, r.process, r.phase, r.metric].filter(Boolean).join(' ')
}

/** The simulated (or measured) number a reference names, averaged over repetitions. */
export function metricOf(all: GalleryRuns, r: MetricRef): number {
  const variant = all[r.variant]
  if (!variant) throw new Error(`no variant "${r.variant}" in the results`)
  const entry = r.value === undefined ? variant[0] : variant.find((v) => String(v.value) === String(r.value))
  if (!entry) throw new Error(`${describeRef(r)}: no run for value ${String(r.value)}`)
  const runs = entry.runs.filter((x) => x.label === r.label)
  if (runs.length === 0) throw new Error(`${describeRef(r)}: no run labelled "${r.label}"`)
  return mean(runs.map((run) => one(run, r)))
}

function one(run: RunResult, r: MetricRef): number {
  if (r.process === undefined) {
    switch (r.metric) {
      case 'readMBps':
        return run.totals.readMBps
      case 'writeMBps':
        return run.totals.writeMBps
      case 'seconds':
        return run.seconds
      case 'seekCylinders':
        if (run.totals.seekCylinders === undefined)
          throw new Error(`${describeRef(r)}: this device reports no head movement`)
        return run.totals.seekCylinders
      default:
        throw new Error(`${describeRef(r)}: the device has no metric "${r.metric}"`)
    }
  }
  const p = run.processes.find((x) => x.name === r.process)
  if (!p) throw new Error(`${describeRef(r)}: no process "${r.process}"`)
  if (r.phase !== undefined) {
    const ph = p.phases?.find((x) => x.name === r.phase)
    if (!ph) throw new Error(`${describeRef(r)}: no phase "${r.phase}"`)
    switch (r.metric) {
      case 'seconds':
        return ph.seconds
      case 'MBps':
        return ph.bytes / 1e6 / ph.seconds
      case 'opsPerSecond':
        return ph.ops / ph.seconds
      case 'bytesPerSecond':
        return ph.bytes / ph.seconds
      default:
        throw new Error(`${describeRef(r)}: a phase has no metric "${r.metric}"`)
    }
  }
  switch (r.metric) {
    case 'seconds':
      return p.seconds
    case 'MBps':
      return p.MBps
    case 'bytes':
      return p.bytes
    case 'bytesPerSecond':
      return p.bytes / p.seconds
    case 'opsPerSecond':
      return p.ops / p.seconds
    case 'p50Ms':
      return p.latencyMs.p50
    case 'p99Ms':
      return p.latencyMs.p99
    case 'maxMs':
      return p.latencyMs.max
    default:
      throw new Error(`${describeRef(r)}: a process has no metric "${r.metric}"`)
  }
}

/** A claim's number: whole from 100 up, thousands grouped (2,299,386 cylinders, not 2299386). */
const fmt = (x: number): string =>
  Math.abs(x) >= 100
    ? Math.round(x).toLocaleString('en-US')
    : Math.abs(x) >= 1
      ? x.toFixed(2)
      : x.toPrecision(3)

/** Judge every claim against the runs. A claim whose numbers are missing fails with the reason. */
export function judge(claims: readonly Claim[], all: GalleryRuns): ClaimVerdict[] {
  return claims.map((c) => {
    try {
      return { id: c.id, text: c.text, ...verdict(c, all) }
    } catch (e) {
      return { id: c.id, text: c.text, pass: false, detail: (e as Error).message }
    }
  })
}

function verdict(c: Claim, all: GalleryRuns): { pass: boolean; detail: string } {
  const within = (x: number, min?: number, max?: number): boolean =>
    (min === undefined || x >= min) && (max === undefined || x <= max)
  const bounds = (min?: number, max?: number): string =>
    min !== undefined && max !== undefined
      ? `in [${min}, ${max}]`
      : min !== undefined
        ? `≥ ${min}`
        : `≤ ${max}`
  switch (c.kind) {
    case 'ratio': {
      const a = metricOf(all, c.a)
      const b = metricOf(all, c.b)
      const r = a / b
      return {
        pass: within(r, c.min, c.max),
        detail: `${fmt(a)} / ${fmt(b)} = ${fmt(r)}, expected ${bounds(c.min, c.max)}`,
      }
    }
    case 'range': {
      const x = metricOf(all, c.x)
      return { pass: within(x, c.min, c.max), detail: `${fmt(x)}, expected ${bounds(c.min, c.max)}` }
    }
    case 'between': {
      const x = metricOf(all, c.x)
      const lo = metricOf(all, c.lo)
      const hi = metricOf(all, c.hi)
      const [a, b] = lo <= hi ? [lo, hi] : [hi, lo]
      return { pass: x >= a && x <= b, detail: `${fmt(x)}, expected between ${fmt(a)} and ${fmt(b)}` }
    }
    case 'close': {
      const a = metricOf(all, c.a)
      const b = metricOf(all, c.b)
      const d = Math.abs(a / b - 1)
      return {
        pass: d <= c.tolerance,
        detail: `${fmt(a)} vs ${fmt(b)}: ${(d * 100).toFixed(1)} % apart, expected ≤ ${(c.tolerance * 100).toFixed(0)} %`,
      }
    }
  }
}
