// The "why" of a comparison as figures, for the app's Why panel and the HTML report: one process's
// time split per scheduler (the mean over each scheduler's runs), its requests' stages merged over
// the runs, the scheduler's decisions for it, the explanation of best against worst — simulated
// runs among themselves and real runs among themselves — and what the runs lack (a real run
// without blktrace has no stages, no run but a simulated one has a time split).
import type { Explanation, Mechanism } from '../experiment/explain'
import { explain, rowName } from '../experiment/explain'
import { groupOf, groupProcesses } from '../experiment/process-groups'
import type { ProcessResult, RunResult } from '../experiment/result'
import { runKind } from '../experiment/result'
import { LatencyHistogram } from '../metrics/histogram'
import type { ProcessStages, ProcessTime, StageName, StageSource, TimePart, WaitName } from '../metrics/why'
import { emptyProcessTime, STAGE_SOURCE_MEANING, TIME_PARTS } from '../metrics/why'

/** A run's name as the app shows it: a real run with "(real)". */
export const shownOf = (r: { label: string; source?: string }): string =>
  r.source === 'real' ? `${r.label} (real)` : r.label

/**
 * Which runs an explanation sets against each other, as the panel and the report head it: "noop
 * against anticipatory, by the reader's time"; "every scheduler alike" when they all gave the
 * same (not "noop against noop").
 */
export const pairedText = (e: Pick<Explanation, 'best' | 'worst' | 'process' | 'metric'>): string =>
  `${e.best === e.worst ? 'every scheduler alike' : `${e.worst} against ${e.best}`}, by the ${e.process}'s ${e.metric === 'seconds' ? 'time' : 'throughput'}`

/**
 * Each mechanism in words, as the panel, `run`'s text, the reports and `reproduce` name it beside
 * the explanation: the mechanism itself, as the sentence names it ("read-over-write priority", the
 * point of the ROW entry, not "read priority", which the flash presets' read-before-program
 * ordering in a chip also is).
 */
export const MECHANISM_NAME: Record<Mechanism, string> = {
  anticipation: 'anticipation',
  'deceptive-idleness': 'deceptive idleness',
  'read-priority': 'read-over-write priority',
  batching: 'batching',
  'class-priority': 'held behind a higher I/O priority class',
  'delayed-run': 'blk-mq’s delayed queue run',
  'loop-flush': 'waiting behind the loop worker’s flushes',
  'scheduler-queueing': 'queueing in the scheduler',
  'request-slots': 'waiting for request slots',
  seeks: 'seeks',
  'device-service': 'device service time',
  'lag-preemption': 'EEVDF wake-up preemption by lag',
  'cpu-wakeup': 'CPU wake-up without preemption',
  'cpu-cost': 'CPU cost',
  'dirty-throttling': 'dirty-page throttling',
  sync: 'fsync and journal waits',
  faults: 'page faults',
  think: 'think time',
  noise: 'within the noise',
  none: 'no mechanism found',
}

/** Short names of the time parts, for legends and table heads. */
export const TIME_PART_NAME: Record<TimePart, string> = {
  cpu: 'CPU',
  runnable: 'runnable',
  read: 'reads',
  write: 'writes',
  throttled: 'throttled',
  sync: 'sync',
  fault: 'faults',
  think: 'think',
  other: 'other',
}

/** The stages the panel and the report show (G2I, plugging, is all but always zero). */
export const SHOWN_STAGES: readonly StageName[] = ['q2g', 'i2d', 'd2c', 'q2c']

const runsOf = (runs: readonly RunResult[], label: string): RunResult[] =>
  runs.filter((r) => shownOf(r) === label)

const processOf = (r: RunResult, name: string): ProcessResult | undefined =>
  groupProcesses(r).processes.find((p) => p.name === name)

const stagesOf = (r: RunResult, name: string): ProcessStages | undefined =>
  r.why?.processes.find((s) => s.process === name)

/** One scheduler's time split of the process: the mean over its runs that have one. */
export interface TimeRow {
  label: string
  /** The process's time, s (mean over the runs with a split). */
  seconds: number
  time: ProcessTime
  /** Runs averaged. */
  runs: number
}

/** Per label (in `labels`' order), the process's time split; labels without one are left out. */
export function timeRows(runs: readonly RunResult[], labels: readonly string[], process: string): TimeRow[] {
  const name = groupOf(process)
  const out: TimeRow[] = []
  for (const label of labels) {
    const procs = runsOf(runs, label)
      .map((r) => processOf(r, name))
      .filter((p): p is ProcessResult => p?.time !== undefined)
    if (procs.length === 0) continue
    const time = emptyProcessTime()
    for (const k of TIME_PARTS) time[k] = procs.reduce((a, p) => a + p.time![k], 0) / procs.length
    out.push({
      label,
      seconds: procs.reduce((a, p) => a + p.seconds, 0) / procs.length,
      time,
      runs: procs.length,
    })
  }
  return out
}

/** The parts any row has time in, in TIME_PARTS' order. */
export const usedParts = (rows: readonly TimeRow[]): TimePart[] =>
  TIME_PARTS.filter((k) => rows.some((r) => r.time[k] > 0))

/** A stage's histogram of the process's requests under a label, merged over its runs; null without one. */
export function stageHistogram(
  runs: readonly RunResult[],
  label: string,
  process: string,
  stage: StageName,
): LatencyHistogram | null {
  const name = groupOf(process)
  const h = new LatencyHistogram()
  let any = false
  for (const r of runsOf(runs, label)) {
    const s = stagesOf(r, name)
    if (!s) continue
    any = true
    if (s.stages[stage].count > 0) h.merge(LatencyHistogram.fromJSON(s.stages[stage]))
  }
  return any ? h : null
}

/** What a scheduler decided for the process: means per run over its runs with stages. */
export interface DecisionRow {
  label: string
  requests: number
  /** Runs of consecutive dispatches (batches, slices). */
  batches: number
  /** Waits made for it (idling); null when the runs do not say (a trace). */
  waits: number | null
  /** Of those, ended by its own next request, %; null without waits. */
  rewardedPct: number | null
  /** Mean length of a wait, ms; null without waits. */
  waitMs: number | null
  /** Times the device moved on while it looked idle; null when the runs do not say. */
  deceived: number | null
  /** Requests dispatched after their FIFO deadline. */
  expired: number
  merged: number
  seeks: number
  /**
   * The kernel machinery's waits for it, ms in all (metrics/why.ts `waits`): behind a higher I/O
   * priority class (in the scheduler and at the disk under a loop device), for a run of a queue
   * whose scheduler had declined, behind a loop worker's flushes; null where no run shows any.
   */
  heldMs: number | null
  runWaitMs: number | null
  flushWaitMs: number | null
  /** Its wake-ups to a busy CPU that preempted by EEVDF lag, % (null: none counted). */
  lagPreemptPct: number | null
  runs: number
}

export function decisionRows(
  runs: readonly RunResult[],
  labels: readonly string[],
  process: string,
): DecisionRow[] {
  const name = groupOf(process)
  const out: DecisionRow[] = []
  for (const label of labels) {
    const st = runsOf(runs, label)
      .map((r) => stagesOf(r, name))
      .filter((s): s is ProcessStages => s !== undefined)
    if (st.length === 0) continue
    const mean = (f: (s: ProcessStages) => number): number => st.reduce((a, s) => a + f(s), 0) / st.length
    const idled = st.filter((s) => s.idle !== undefined)
    const waits = idled.reduce((a, s) => a + s.idle!.waits, 0)
    const deceived = st.filter((s) => s.deceived !== undefined)
    const wakeups = st.reduce((a, s) => a + (s.lag?.busyWakeups ?? 0), 0)
    out.push({
      label,
      requests: mean((s) => s.requests),
      batches: mean((s) => s.batches),
      waits: idled.length > 0 ? waits / idled.length : null,
      rewardedPct: waits > 0 ? (idled.reduce((a, s) => a + s.idle!.rewarded, 0) / waits) * 100 : null,
      waitMs: waits > 0 ? idled.reduce((a, s) => a + s.idle!.ns, 0) / waits / 1e6 : null,
      deceived:
        deceived.length > 0 ? deceived.reduce((a, s) => a + s.deceived!.switches, 0) / deceived.length : null,
      expired: mean((s) => s.expired),
      merged: mean((s) => s.merged),
      seeks: mean((s) => s.seeks),
      heldMs: waitMs(st, ['classHeld', 'backingClassHeld']),
      runWaitMs: waitMs(st, ['delayedRun']),
      flushWaitMs: waitMs(st, ['behindFlush']),
      lagPreemptPct:
        wakeups > 0 ? (st.reduce((a, s) => a + (s.lag?.preempts ?? 0), 0) / wakeups) * 100 : null,
      runs: st.length,
    })
  }
  return out
}

/** The waits of `kinds` of the process, ms, mean per run; null when none of the runs has any. */
function waitMs(st: readonly ProcessStages[], kinds: readonly WaitName[]): number | null {
  const ns = st.reduce((a, s) => a + kinds.reduce((b, k) => b + (s.waits?.[k]?.ns ?? 0), 0), 0)
  return ns > 0 ? ns / st.length / 1e6 : null
}

/**
 * What traced the stages of the process in these runs that are not simulated — blktrace, or the
 * kernel's block tracepoints through tracefs where blktrace could not (real-run's RunTrace) — as
 * "traced with blktrace", each source with its runs' rows when they differ; null when none has
 * stages of it (a simulation's are the simulator's own, said nowhere).
 */
export function stageSourceText(runs: readonly RunResult[], process: string): string | null {
  const name = groupOf(process)
  const by = new Map<StageSource, string[]>()
  for (const r of runs) {
    const source = r.why?.source
    if (source === undefined || source === 'simulated' || !stagesOf(r, name)) continue
    const rows = by.get(source) ?? []
    if (!rows.includes(rowName(r))) rows.push(rowName(r))
    by.set(source, rows)
  }
  if (by.size === 0) return null
  const each = [...by].map(
    ([s, rows]) => `${STAGE_SOURCE_MEANING[s]}${by.size > 1 ? ` (${rows.join(', ')})` : ''}`,
  )
  return `traced with ${each.join('; with ')}`
}

/** What the runs of `labels` lack for the process, said per kind of run. */
export interface WhyGaps {
  /** Labels with the process but no time split (real and imported runs). */
  noTime: string[]
  /** Labels with the process but no stages (real runs without blktrace, imported runs). */
  noStages: string[]
  /** The same, in sentences, with what the runs themselves say is missing. */
  notes: string[]
}

export function whyGaps(runs: readonly RunResult[], labels: readonly string[], process: string): WhyGaps {
  const name = groupOf(process)
  const noTime: string[] = []
  const noStages: string[] = []
  const kinds = new Map<string, string>()
  const said = new Set<string>()
  for (const label of labels) {
    const rs = runsOf(runs, label).filter((r) => processOf(r, name) !== undefined)
    if (rs.length === 0) continue
    kinds.set(label, runKind(rs[0]))
    if (!rs.some((r) => processOf(r, name)?.time)) noTime.push(label)
    if (!rs.some((r) => stagesOf(r, name))) noStages.push(label)
    for (const r of rs) for (const m of r.why?.missing ?? []) said.add(m)
  }
  const of = (kind: string, list: string[]): string[] => list.filter((l) => kinds.get(l) === kind)
  const notes: string[] = []
  const realNoStages = of('real', noStages)
  if (realNoStages.length > 0)
    notes.push(
      `real runs (${realNoStages.join(', ')}): the stages and the scheduler's decisions need blktrace, which these runs did not record`,
    )
  const realNoTime = of('real', noTime).filter((l) => !realNoStages.includes(l))
  if (realNoTime.length > 0 || realNoStages.length > 0)
    notes.push('real runs: the split of a process’s time is simulated only')
  const imported = [...new Set([...of('imported', noTime), ...of('imported', noStages)])]
  if (imported.length > 0)
    notes.push(`imported runs (${imported.join(', ')}): a tool’s output holds no time split and no stages`)
  notes.push(...said)
  return { noTime, noStages, notes }
}

/**
 * The explanations of the comparison for the process: of the simulated runs among themselves,
 * then of the real runs among themselves (each needs two schedulers that ran it). `rows`: the
 * rows' order in the table; of rows that did alike, the first is named, whatever order the runs
 * came in (the app's stream in the order they finished, a saved session in the spec's).
 */
export function explainShown(
  runs: readonly RunResult[],
  process: string,
  rows?: readonly string[],
): Explanation[] {
  const at = (r: RunResult): number => {
    const i = rows?.indexOf(shownOf(r)) ?? -1
    return i < 0 ? Infinity : i
  }
  const ordered = rows ? [...runs].sort((a, b) => at(a) - at(b)) : runs
  // explain() names a real run's row "label (real)" itself
  const out: Explanation[] = []
  for (const kind of ['simulated', 'real'] as const) {
    const e = explain(
      ordered.filter((r) => runKind(r) === kind),
      process,
    )
    if (e) out.push(e)
  }
  return out
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

/**
 * The process a document's why is about: the spec's first stop process (a resolved spec's
 * `stop`, or its workload's); without a spec (run --json's output), the first process every run
 * finished (a stop process ends its run, a looping one is cut short), else the first process of
 * the runs; undefined without runs.
 */
export function whyProcessOf(spec: unknown, runs: readonly RunResult[]): string | undefined {
  const stop = isObj(spec)
    ? (spec.stop ?? (isObj(spec.workload) ? spec.workload.stop : undefined))
    : undefined
  const first = isObj(stop) && Array.isArray(stop.processes) ? stop.processes[0] : undefined
  const name = typeof first === 'string' ? groupOf(first) : undefined
  if (name !== undefined && runs.some((r) => processOf(r, name))) return name
  const names = [...new Set(runs.flatMap((r) => groupProcesses(r).processes.map((p) => p.name)))]
  const finished = names.find((n) =>
    runs.every((r) => {
      const p = processOf(r, n)
      return p === undefined || p.finished
    }),
  )
  return finished ?? names[0]
}
