// A fingerprint's sweep runs several passes: each point's passes as one, their spread as the
// point's noise, and a point as the fit reads it.
import type { ProcessResult } from '../../../shared/experiment/result'
import { LatencyHistogram } from '../../../shared/metrics/histogram'
import type { SweepName, SweepPoint } from './fingerprint-fit'
import type { FitPoint } from './fit-virtual'

/** A point of one pass as the fit reads it: real (with the CPUs it kept busy) or simulated. */
export function fitPointOf(p: ProcessResult, busy: number | null): FitPoint {
  return {
    name: p.name as SweepName,
    iops: p.seconds > 0 ? p.ops / p.seconds : 0,
    MBps: p.MBps,
    latency: p.latency,
    fioCpuUs: p.ops > 0 && p.cpuSeconds > 0 ? (p.cpuSeconds * 1e6) / p.ops : null,
    busyCpus: busy,
  }
}

/**
 * Several passes of one point as one: with three or more, the median pass by rate (its rates and
 * histogram together — on a shared VM one pass in three can be off by a third, and a mean or a
 * merged histogram would carry it); with two, the rates averaged and the histograms merged.
 */
export function mergePasses(passes: FitPoint[]): FitPoint {
  if (passes.length >= 3) return [...passes].sort((a, b) => a.iops - b.iops)[(passes.length - 1) >> 1]
  const h = new LatencyHistogram()
  for (const p of passes) h.merge(LatencyHistogram.fromJSON(p.latency))
  const mean = (f: (p: FitPoint) => number | null): number | null => {
    const xs = passes.map(f).filter((x): x is number => x !== null)
    return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null
  }
  return {
    name: passes[0].name,
    iops: mean((p) => p.iops) ?? 0,
    MBps: mean((p) => p.MBps) ?? 0,
    latency: h.toJSON(),
    fioCpuUs: mean((p) => p.fioCpuUs),
    busyCpus: mean((p) => p.busyCpus),
  }
}

/**
 * A sweep run `passes` times (`run(k)`: the points of pass k, in the same order each time), each
 * point merged over the passes as mergePasses does.
 */
export function inPasses(passes: number, run: (pass: number) => FitPoint[]): FitPoint[] {
  const all = Array.from({ length: Math.max(1, passes) }, (_, k) => run(k))
  return all.length === 1 ? all[0] : all[0].map((_, i) => mergePasses(all.map((ps) => ps[i])))
}

export const sweepPointOf = (f: FitPoint): SweepPoint => {
  const h = LatencyHistogram.fromJSON(f.latency)
  return {
    name: f.name,
    p50Ms: h.percentile(50) / 1e6,
    p99Ms: h.percentile(99) / 1e6,
    meanMs: h.mean / 1e6,
    iops: f.iops,
    MBps: f.MBps,
  }
}

/** The spread of a point's passes (largest less smallest, over the mean): rates and medians, at least 5 %. */
export function noiseOf(passes: FitPoint[]): number {
  if (passes.length < 2) return 0.05
  const spread = (xs: number[]): number => {
    const m = xs.reduce((a, b) => a + b, 0) / xs.length
    return m > 0 ? (Math.max(...xs) - Math.min(...xs)) / m : 0
  }
  const p50 = passes.map((p) => LatencyHistogram.fromJSON(p.latency).percentile(50))
  return Math.max(0.05, spread(passes.map((p) => p.iops)), spread(p50))
}
