import { LatencyHistogram, summarizeLatency } from '../metrics/histogram'
import type { LatencySummary } from '../metrics/histogram'
import type { ProcessResult, RunResult } from './result'
import type { ProcessTime } from '../metrics/why'
import { emptyProcessTime, TIME_PARTS } from '../metrics/why'

/** The spec's process a result belongs to: `rr/3` → `rr`, `make` → `make`. */
export const groupOf = (name: string): string => {
  const i = name.indexOf('/')
  return i < 0 ? name : name.slice(0, i)
}

/**
 * A run with the instances of each spec process (random-read's `rr/0 … rr/7`, fio's numjobs, a
 * trace's processes) folded into one row each, as fio's group_reporting does: bytes and
 * operations add up, the time is the longest, throughput and IOPS are over that time, latency
 * comes from the merged histograms (every I/O of the group). fio's slat and lat have no histogram:
 * their mean is over every I/O and their max the largest; their percentiles are not known.
 */
export function groupProcesses(run: RunResult): RunResult {
  const groups = new Map<string, ProcessResult[]>()
  for (const p of run.processes) {
    const g = groupOf(p.name)
    const list = groups.get(g)
    if (list) list.push(p)
    else groups.set(g, [p])
  }
  // a lone instance goes by its spec process too (a trace of one pid, `queue/1000`, is `queue`),
  // as the why's stages do: the time split and the explanation find it by that name
  if ([...groups].every(([name, l]) => l.length === 1 && l[0].name === name)) return run
  const processes = [...groups].map(([name, ps]) =>
    ps.length > 1 ? fold(name, ps) : ps[0].name === name ? ps[0] : { ...ps[0], name },
  )
  return { ...run, processes }
}

function fold(name: string, ps: ProcessResult[]): ProcessResult {
  const h = new LatencyHistogram()
  for (const p of ps) h.merge(LatencyHistogram.fromJSON(p.latency))
  const bytes = ps.reduce((a, p) => a + p.bytes, 0)
  const seconds = Math.max(...ps.map((p) => p.seconds))
  return {
    name,
    pid: ps[0].pid,
    bytes,
    readBytes: ps.reduce((a, p) => a + p.readBytes, 0),
    writeBytes: ps.reduce((a, p) => a + p.writeBytes, 0),
    seconds,
    MBps: seconds > 0 ? bytes / 1e6 / seconds : 0,
    ops: ps.reduce((a, p) => a + p.ops, 0),
    finished: ps.every((p) => p.finished),
    startSeconds: Math.min(...ps.map((p) => p.startSeconds)),
    cpuSeconds: ps.reduce((a, p) => a + p.cpuSeconds, 0),
    latencyMs: summarizeLatency(h),
    latency: h.toJSON(),
    ...foldStage(ps, 'slatMs'),
    ...foldStage(ps, 'latMs'),
    ...meanTime(ps),
  }
}

/** fio's slat or lat of a group: the mean over its I/Os, the largest max; percentiles unknown. */
function foldStage(
  ps: readonly ProcessResult[],
  k: 'slatMs' | 'latMs',
): { slatMs?: LatencySummary; latMs?: LatencySummary } {
  const timed = ps.filter((p) => p[k] !== undefined)
  if (timed.length === 0) return {}
  const ops = timed.reduce((a, p) => a + p.ops, 0)
  const mean = ops > 0 ? timed.reduce((a, p) => a + p[k]!.mean * p.ops, 0) / ops : NaN
  return {
    [k]: {
      p50: NaN,
      p90: NaN,
      p95: NaN,
      p99: NaN,
      p999: NaN,
      max: Math.max(...timed.map((p) => p[k]!.max)),
      mean,
    },
  }
}

/** How a spec process's instances (`rr/0 …`) compare: how many, and their MB/s, lowest and highest. */
export interface InstanceSpread {
  group: string
  instances: number
  /** The lowest and the highest MB/s of one instance, over every run. */
  minMBps: number
  maxMBps: number
  /** The largest (highest − lowest) ÷ highest of one run's instances: 0 when they move alike. */
  spread: number
}

/** The spec processes of these runs that have several instances, in the runs' order. */
export function instanceSpreads(runs: readonly RunResult[]): InstanceSpread[] {
  const out = new Map<string, InstanceSpread>()
  for (const r of runs) {
    const groups = new Map<string, ProcessResult[]>()
    for (const p of r.processes) {
      const g = groupOf(p.name)
      if (g === p.name) continue
      groups.set(g, [...(groups.get(g) ?? []), p])
    }
    for (const [group, ps] of groups) {
      if (ps.length < 2) continue
      const rates = ps.map((p) => p.MBps)
      const lo = Math.min(...rates)
      const hi = Math.max(...rates)
      const spread = hi > 0 ? (hi - lo) / hi : 0
      const was = out.get(group)
      out.set(group, {
        group,
        instances: Math.max(was?.instances ?? 0, ps.length),
        minMBps: Math.min(was?.minMBps ?? Infinity, lo),
        maxMBps: Math.max(was?.maxMBps ?? -Infinity, hi),
        spread: Math.max(was?.spread ?? 0, spread),
      })
    }
  }
  return [...out.values()]
}

/** The instances' time accounts, part by part, averaged: one instance's typical split. */
function meanTime(ps: readonly ProcessResult[]): { time?: ProcessTime } {
  const timed = ps.filter((p) => p.time !== undefined)
  if (timed.length === 0) return {}
  const time = emptyProcessTime()
  for (const k of TIME_PARTS) time[k] = timed.reduce((a, p) => a + p.time![k], 0) / timed.length
  return { time }
}
