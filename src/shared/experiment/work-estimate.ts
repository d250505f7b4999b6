import { findDeviceModel } from '../devices/registry'
import { findWorkload } from '../workloads/registry'
import type { ResolvedSpec } from './resolved'

/**
 * What simulating a spec will take, estimated from the spec alone before anything runs — so a
 * request far beyond what the machine can do is refused up front (work-limits.ts) instead of
 * running until it is killed. Estimates, not promises: upper bounds where the spec allows.
 */
export interface WorkEstimate {
  /** Simulations: scheduler entries × repetitions (or the cap when repeating until stable), over every sweep point. */
  runs: number
  /** Simulated processes in the largest run, every instance counted. */
  maxProcessesPerRun: number
  /** The longest simulated-time bound of a run (stop.maxSeconds), s. */
  maxSimSeconds: number
  /** I/O requests of the largest run, at most. */
  maxRequestsPerRun: number
  /** What bounds that: the I/O its processes ask for, or what the device takes in the time limit. */
  requestsBoundBy: 'planned' | 'time'
  /** I/O requests of all runs, at most. */
  requests: number
  /** Memory of the largest simulation, MiB. */
  maxRunMemoryMiB: number
  /** Memory of all the results kept, MiB. */
  resultsMemoryMiB: number
}

/**
 * What the estimate counts per unit, measured on the lab machine (Node 20): a simulation's fixed
 * memory and each process's (its latency histogram, program, page-cache state); a result's fixed
 * part and what grows with processes, time-series bins (bounded: TimeSeries keeps ≤ 4096, 100 ms
 * each until it merges them) and sampled dispatches (≤ 20 000).
 */
export const WORK_COSTS = {
  runBaseMiB: 64,
  processKiB: 32,
  resultBaseKiB: 64,
  resultProcessKiB: 2,
  resultBinKiB: 0.0625,
  resultDispatchKiB: 0.04,
  binSeconds: 0.1,
  maxBins: 4096,
  maxDispatches: 20_000,
  /** When no process says its I/O size. */
  defaultIoBytes: 4096,
} as const

interface PerSpec {
  runs: number
  processes: number
  requests: number
  boundBy: 'planned' | 'time'
  runMiB: number
  resultKiB: number
}

/** The work of one spec's runs. */
function perSpec(spec: ResolvedSpec): PerSpec {
  const c = WORK_COSTS
  const runs = spec.schedulers.length * (spec.untilStable?.maxRepetitions ?? spec.repetitions)
  let processes = 0
  let planned = 0
  let ioBytes = Infinity
  for (const p of spec.processes) {
    const w = findWorkload(p.type)
    processes += w?.instances?.(p.params) ?? 1
    // open-ended or unknown: only the time limit bounds it
    const ops = w && !w.openEnded(p.params) ? w.plannedOps?.(p.params) : undefined
    planned += ops ?? Infinity
    ioBytes = Math.min(ioBytes, w?.ioBytes?.(p.params) ?? c.defaultIoBytes)
  }
  const bytes = Math.max(512, Number.isFinite(ioBytes) ? ioBytes : c.defaultIoBytes)
  const model = findDeviceModel(spec.device.model)
  const peak = model ? model.peakRequestsPerSecond(spec.device.values, bytes) : Infinity
  const byTime = spec.stop.maxSeconds * peak
  const requests = Math.min(planned, byTime)
  const bins = Math.min(c.maxBins, Math.ceil(spec.stop.maxSeconds / c.binSeconds))
  return {
    runs,
    processes,
    requests,
    boundBy: planned <= byTime ? 'planned' : 'time',
    runMiB: c.runBaseMiB + (processes * c.processKiB) / 1024,
    resultKiB:
      c.resultBaseKiB +
      processes * c.resultProcessKiB +
      bins * c.resultBinKiB +
      Math.min(c.maxDispatches, requests) * c.resultDispatchKiB,
  }
}

/** The work of running these specs (one, or one per sweep point). */
export function estimateWork(specs: readonly ResolvedSpec[]): WorkEstimate {
  const each = specs.map(perSpec)
  const largest = each.reduce<PerSpec | null>((a, x) => (a === null || x.requests > a.requests ? x : a), null)
  return {
    runs: each.reduce((a, x) => a + x.runs, 0),
    maxProcessesPerRun: Math.max(0, ...each.map((x) => x.processes)),
    maxSimSeconds: Math.max(0, ...specs.map((s) => s.stop.maxSeconds)),
    maxRequestsPerRun: largest?.requests ?? 0,
    requestsBoundBy: largest?.boundBy ?? 'planned',
    requests: each.reduce((a, x) => a + x.runs * x.requests, 0),
    maxRunMemoryMiB: Math.max(0, ...each.map((x) => x.runMiB)),
    resultsMemoryMiB: each.reduce((a, x) => a + (x.runs * x.resultKiB) / 1024, 0),
  }
}
