import { LatencyHistogram, summarizeLatency } from '../metrics/histogram'
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
 * trace's processes) folded into one row each: bytes and operations add up, the time is the
 * longest, throughput is over that time, latency comes from the merged histograms.
 */
export function groupProcesses(run: RunResult): RunResult {
  const groups = new Map<string, ProcessResult[]>()
  for (const p of run.processes) {
    const g = groupOf(p.name)
    const list = groups.get(g)
    if (list) list.push(p)
    else groups.set(g, [p])
  }
  if ([...groups.values()].every((l) => l.length === 1)) return run
  const processes = [...groups].map(([name, ps]) => (ps.length === 1 ? ps[0] : fold(name, ps)))
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
    ...meanTime(ps),
  }
}

/** The instances' time accounts, part by part, averaged: one instance's typical split. */
function meanTime(ps: readonly ProcessResult[]): { time?: ProcessTime } {
  const timed = ps.filter((p) => p.time !== undefined)
  if (timed.length === 0) return {}
  const time = emptyProcessTime()
  for (const k of TIME_PARTS) time[k] = timed.reduce((a, p) => a + p.time![k], 0) / timed.length
  return { time }
}
