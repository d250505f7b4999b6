import type { ProcessStages, ProcessTime, TimePart } from '../metrics/why'
import { TIME_PARTS } from '../metrics/why'
import { num } from '../util/people-numbers'
import { groupOf, groupProcesses } from './process-groups'
import type { ProcessResult, RunResult } from './result'
import { runKind } from './result'
import { ioMechanism, MB } from './explain-io'
import { withinNoise } from './explain-noise'
import { lagOf } from './explain-machinery'

/**
 * What a comparison's explanation found to make the difference, named after the mechanism its
 * figures show (the first the figures satisfy, in the order `mechanismOf` looks):
 * - `anticipation`: the better scheduler kept the device for the process between its requests,
 *   and most of those waits were rewarded by its next request;
 * - `deceptive-idleness`: the worse one moved on to other processes whenever the process was
 *   between two requests, and its next request came soon after — then waited;
 * - `read-priority`: the better one let the process's reads pass the others' writes
 *   (read-over-write priority);
 * - `batching`: the worse one served its requests in many short runs, switching between them;
 * - `class-priority`: its requests waited behind a higher I/O priority class — in the device's
 *   scheduler, or at the disk under a loop device (explain-machinery.ts);
 * - `delayed-run`: they waited for blk-mq to run a queue again after its scheduler declined;
 * - `loop-flush`: they queued behind cache flushes in a loop device's worker;
 * - `scheduler-queueing`: its requests waited longer in the scheduler, for none of those reasons;
 * - `request-slots`: they waited for a request slot (nr_requests, tags, writeback throttling);
 * - `seeks`, `device-service`: they took longer at the device — with more head travel, or not;
 * - `lag-preemption`: the process was runnable for longer, and EEVDF's preemption on wake-up by
 *   lag made the difference (it preempted less often, or was preempted more: explain-machinery.ts);
 * - `cpu-wakeup`: the process was runnable, not running, for longer (woken by its I/O, it waited
 *   for a CPU another task held — no wake-up preemption);
 * - `cpu-cost`, `dirty-throttling`, `sync`, `faults`, `think`: its time on a CPU, in
 *   balance_dirty_pages, fsync, page faults or its own pauses differed most;
 * - `noise`: they do not differ beyond the run-to-run noise (explain-noise.ts: their repetitions'
 *   confidence interval, and a floor for real runs);
 * - `none`: the two do not differ enough to explain (under 2 %), or the runs have no figures.
 */
export const MECHANISMS = [
  'anticipation',
  'deceptive-idleness',
  'read-priority',
  'batching',
  'class-priority',
  'delayed-run',
  'loop-flush',
  'scheduler-queueing',
  'request-slots',
  'seeks',
  'device-service',
  'lag-preemption',
  'cpu-wakeup',
  'cpu-cost',
  'dirty-throttling',
  'sync',
  'faults',
  'think',
  'noise',
  'none',
] as const
export type Mechanism = (typeof MECHANISMS)[number]

export interface Explanation {
  /** The process explained (a spec process: instances folded). */
  process: string
  /** What decides best and worst: its time (a job of fixed size) or its throughput. */
  metric: 'seconds' | 'MBps'
  best: string
  worst: string
  mechanism: Mechanism
  /** One to three sentences; every figure in them comes from the runs. */
  text: string
}

/** Below this relative difference between best and worst there is nothing to explain. */
const TOO_CLOSE = 0.02

/** One label's representative run and the process in it. */
export interface Side {
  label: string
  /** Its runs of the process, and each one's figure (time or throughput). */
  runs: readonly RunResult[]
  values: number[]
  run: RunResult
  proc: ProcessResult
  stages?: ProcessStages
  /** The mean of `values`. */
  figure: number
}

/**
 * Explain a comparison for one process: which scheduler did best and worst for it, where its time
 * went differently between the two, and the mechanism the figures show. `process`: a spec process
 * name (default: the first process of the first run). Undefined when fewer than two schedulers
 * ran it.
 */
export function explain(runs: readonly RunResult[], process?: string): Explanation | undefined {
  const folded = runs.map(groupProcesses)
  const name = process !== undefined ? groupOf(process) : folded[0]?.processes[0]?.name
  if (name === undefined) return undefined
  // a label's simulated and real runs are two rows, never one side
  const byLabel = new Map<string, RunResult[]>()
  for (const r of folded) {
    if (!r.processes.some((p) => p.name === name)) continue
    const row = rowName(r)
    const list = byLabel.get(row)
    if (list) list.push(r)
    else byLabel.set(row, [r])
  }
  if (byLabel.size < 2) return undefined
  const metric = metricFor([...byLabel.values()].flat(), name)
  const sides = [...byLabel].map(([label, list]) => sideOf(label, list, name, metric))
  const better = (a: Side, b: Side): boolean =>
    metric === 'seconds' ? a.figure < b.figure : a.figure > b.figure
  const best = sides.reduce((a, s) => (better(s, a) ? s : a))
  const worst = sides.reduce((a, s) => (better(a, s) ? s : a))
  return explainSides(name, metric, worst, best)
}

/**
 * Explain why `worse` (runs of one scheduler, or of one variant of an experiment) did worse for
 * `process` than `better`, as a published comparison pairs them (a gallery entry), whichever the
 * figures rank higher. Undefined when either side lacks the process.
 */
export function explainPair(
  process: string,
  worse: { label: string; runs: readonly RunResult[] },
  better: { label: string; runs: readonly RunResult[] },
): Explanation | undefined {
  const name = groupOf(process)
  const w = worse.runs.map(groupProcesses).filter((r) => r.processes.some((p) => p.name === name))
  const b = better.runs.map(groupProcesses).filter((r) => r.processes.some((p) => p.name === name))
  if (w.length === 0 || b.length === 0) return undefined
  const metric = metricFor([...w, ...b], name)
  return explainSides(
    name,
    metric,
    sideOf(worse.label, w, name, metric),
    sideOf(better.label, b, name, metric),
  )
}

/** A run's row in a comparison: its label, marked when it is a real or imported run. */
export const rowName = (r: RunResult): string =>
  runKind(r) === 'simulated' ? r.label : `${r.label} (${runKind(r)})`

/**
 * Its time for a job of fixed size; its throughput for one the clock bounds — one that did not
 * finish (stopped by the time limit), or that ran the same time under every scheduler (fio's
 * time_based jobs finish when their runtime is up).
 */
function metricFor(runs: readonly RunResult[], name: string): 'seconds' | 'MBps' {
  const ps = runs.map((r) => r.processes.find((p) => p.name === name)!)
  if (!ps.every((p) => p.finished)) return 'MBps'
  const secs = ps.map((p) => p.seconds)
  const lo = Math.min(...secs)
  const hi = Math.max(...secs)
  return hi > 0 && (hi - lo) / hi < 0.001 && ps.some((p) => p.bytes !== ps[0].bytes) ? 'MBps' : 'seconds'
}

/** A label's run closest to its mean figure (its representative), with the mean. */
function sideOf(label: string, runs: readonly RunResult[], name: string, metric: 'seconds' | 'MBps'): Side {
  const value = (r: RunResult): number => {
    const p = r.processes.find((x) => x.name === name)!
    return metric === 'seconds' ? p.seconds : p.MBps
  }
  const values = runs.map(value)
  const mean = values.reduce((a, v) => a + v, 0) / runs.length
  const run = runs.reduce((a, r) => (Math.abs(value(r) - mean) < Math.abs(value(a) - mean) ? r : a))
  const proc = run.processes.find((x) => x.name === name)!
  const stages = run.why?.processes.find((s) => s.process === name)
  return { label, runs, values, run, proc, stages, figure: mean }
}

function explainSides(name: string, metric: 'seconds' | 'MBps', worst: Side, best: Side): Explanation {
  const base = { process: name, metric, best: best.label, worst: worst.label } as const
  const gap = Math.abs(worst.figure - best.figure) / Math.max(Math.abs(worst.figure), Math.abs(best.figure))
  if (!(gap >= TOO_CLOSE))
    return {
      ...base,
      mechanism: 'none',
      text:
        best.label === worst.label || gap === 0
          ? `Every scheduler gave the ${name} the same ${metric === 'seconds' ? 'time' : 'throughput'}: nothing to explain.`
          : `${best.label} and ${worst.label} differ by ${num(gap * 100, 2)} % for the ${name}: too little to explain.`,
    }
  const noise = withinNoise(name, metric, worst, best, gap)
  if (noise !== null) return { ...base, mechanism: 'noise', text: noise }
  const first = outcome(name, metric, worst, best)
  const part = dominantPart(worst, best)
  const { mechanism, detail } = mechanismOf(part, worst, best)
  const share = part !== undefined ? timeShare(part, worst, best) : '.'
  return { ...base, mechanism, text: [first + share, detail].filter((s) => s.length > 0).join(' ') }
}

function outcome(name: string, metric: 'seconds' | 'MBps', w: Side, b: Side): string {
  if (metric === 'seconds')
    return `Under ${w.label} the ${name} took ${num(w.figure)} s, against ${num(b.figure)} s under ${b.label}`
  return `Under ${w.label} the ${name} moved ${num(w.figure)} MB/s, against ${num(b.figure)} MB/s under ${b.label}`
}

/**
 * The part of the process's time that grew most from best to worst, per MB it moved (so that a
 * time-based run, which moves less under the worse scheduler, compares like a job of fixed size).
 */
function dominantPart(w: Side, b: Side): TimePart | undefined {
  const tw = w.proc.time
  const tb = b.proc.time
  if (!tw || !tb) return undefined
  let top: TimePart | undefined
  let most = 0
  for (const k of TIME_PARTS) {
    const d = tw[k] / MB(w.proc) - tb[k] / MB(b.proc)
    if (d > most) {
      most = d
      top = k
    }
  }
  return top
}

const PART_WORDS: Record<TimePart, string> = {
  cpu: 'on a CPU',
  runnable: 'runnable but not running',
  read: 'blocked on its reads',
  write: 'blocked on its writes',
  throttled: 'throttled for dirtying pages',
  sync: 'waiting in fsync or for the journal',
  fault: 'in page faults',
  think: 'sleeping between operations',
  other: 'waiting for its children or other work',
}

function timeShare(part: TimePart, w: Side, b: Side): string {
  const pct = (t: ProcessTime, secs: number): string => `${num((t[part] / Math.max(secs, 1e-12)) * 100, 2)} %`
  const tw = w.proc.time!
  const tb = b.proc.time!
  return (
    `; it spent ${pct(tw, w.proc.seconds)} of its time ${PART_WORDS[part]} (${num(tw[part])} s)` +
    ` under ${w.label}, ${pct(tb, b.proc.seconds)} (${num(tb[part])} s) under ${b.label}.`
  )
}

function mechanismOf(part: TimePart | undefined, w: Side, b: Side): { mechanism: Mechanism; detail: string } {
  const name = w.proc.name
  switch (part) {
    case 'runnable': {
      const lag = lagOf(w, b)
      if (lag !== null) return lag
      const r = w.proc.time!.runnable
      return {
        mechanism: 'cpu-wakeup',
        detail:
          `Woken when its I/O completed, it waited ${num(r)} s in all for a CPU that another task held` +
          ` under ${w.label} (${num(b.proc.time!.runnable)} s under ${b.label}): the CPU scheduler did not` +
          ` preempt the running task on its wake-up, so the device sat waiting for its next request.`,
      }
    }
    case 'cpu':
      return {
        mechanism: 'cpu-cost',
        detail: `Its CPU time was ${num(w.proc.time!.cpu)} s under ${w.label} and ${num(b.proc.time!.cpu)} s under ${b.label}.`,
      }
    case 'throttled':
      return {
        mechanism: 'dirty-throttling',
        detail: `balance_dirty_pages held it ${num(w.proc.time!.throttled)} s under ${w.label}, ${num(b.proc.time!.throttled)} s under ${b.label}: writeback of its dirty pages went slower.`,
      }
    case 'sync':
      return {
        mechanism: 'sync',
        detail: `Its fsyncs and journal waits took ${num(w.proc.time!.sync)} s under ${w.label}, ${num(b.proc.time!.sync)} s under ${b.label}.`,
      }
    case 'fault':
      return {
        mechanism: 'faults',
        detail: `Page faults and swap-in took ${num(w.proc.time!.fault)} s under ${w.label}, ${num(b.proc.time!.fault)} s under ${b.label}.`,
      }
    case 'think':
      return {
        mechanism: 'think',
        detail: `The difference is in its own pauses between operations, not in its I/O.`,
      }
    default:
      return ioMechanism(name, w, b)
  }
}
