// What a process's figures mean depends on what held it: a job of fixed size (dd count=N, a
// 100 MB read) ends when its work is done, so its time is the figure and shorter is better; a
// time-based job (dd looping, fio time_based, anything still running when the run stopped) runs
// for a given time, so its time says nothing about the scheduler — its throughput does. Told from
// the runs themselves (simulated, real or imported alike), with the spec's word when there is one.
import { SAME_RELATIVE } from '../report/mean-ci'
import type { RunResult } from './result'

export type ProcessKind = 'fixed-size' | 'time-based'

/** A process's figures over runs: what the kind is told from. */
export interface ProcessSamples {
  bytes: number[]
  seconds: number[]
  /** It finished on its own in every run. */
  finished: boolean
}

const same = (xs: readonly number[]): boolean => {
  const v = xs.filter(Number.isFinite)
  if (v.length === 0) return false
  const lo = Math.min(...v)
  const hi = Math.max(...v)
  return hi - lo <= SAME_RELATIVE * Math.max(Math.abs(lo), Math.abs(hi))
}

/**
 * Time-based when it did not finish in some run (it ran until the run stopped), or when its time
 * was the same in every run while the work it did was not; otherwise of fixed size.
 */
export function kindOf(s: ProcessSamples): ProcessKind {
  if (!s.finished) return 'time-based'
  if (same(s.bytes)) return 'fixed-size'
  return same(s.seconds) ? 'time-based' : 'fixed-size'
}

/** A spec's process parameters that make it time-based whatever its runs show. */
export function timeBasedInSpec(p: { params: Readonly<Record<string, unknown>> }): boolean {
  return p.params.loop === true || p.params.time_based === true
}

/**
 * The kind of every process of these runs, by name (as the runs name them: pass runs with their
 * instances folded, groupProcesses, for folded names). `spec` processes named here that are
 * time-based by their parameters are so whatever the runs show.
 */
export function processKinds(
  runs: readonly RunResult[],
  spec?: { processes: readonly { name: string; params: Readonly<Record<string, unknown>> }[] } | null,
): Map<string, ProcessKind> {
  const samples = new Map<string, ProcessSamples>()
  for (const r of runs)
    for (const p of r.processes) {
      let s = samples.get(p.name)
      if (!s) samples.set(p.name, (s = { bytes: [], seconds: [], finished: true }))
      s.bytes.push(p.bytes)
      s.seconds.push(p.seconds)
      if (!p.finished) s.finished = false
    }
  const out = new Map<string, ProcessKind>()
  for (const [name, s] of samples) out.set(name, kindOf(s))
  for (const p of spec?.processes ?? [])
    if (timeBasedInSpec(p))
      for (const name of out.keys())
        if (name === p.name || name.startsWith(`${p.name}/`)) out.set(name, 'time-based')
  return out
}

/** Whether the runs' length is a figure of the schedulers: every run ended when its processes did. */
export function runLengthMeaningful(runs: readonly RunResult[]): boolean {
  return runs.length > 0 && runs.every((r) => r.stoppedBy === 'processes')
}
