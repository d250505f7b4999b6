// Run sets from any sessions compared against a baseline set, metric by metric: the mean over the
// repetitions (or, for latency, the percentile of every operation of every repetition together),
// the difference from the baseline in percent, and whether it is significant — Welch's t-test
// across repetitions for times and rates, Mann-Whitney on the merged latency histograms for latency.
import { groupProcesses } from '../experiment/process-groups'
import type { RunResult } from '../experiment/result'
import { compare, isNoisy, orderedWithMean } from '../metrics/compare-runs'
import { LatencyHistogram } from '../metrics/histogram'
import { mannWhitneyHistograms } from '../metrics/mann-whitney'
import { summarize } from '../metrics/stats'
import { processKinds, runLengthMeaningful } from '../experiment/process-kind'
import type { RunSetFacts } from '../session/types'

/** A run set of a session file: the file and the set's key in it. */
export interface RunSetRef {
  path: string
  set: string
  /**
   * Its processes compared as others' (its name → the name to compare it as): an imported fio
   * job `t` as the simulated `reader`. Names not listed stay as they are.
   */
  rename?: Record<string, string>
}

export interface CompareMetric {
  /** `run:seconds`, `dev:readMBps`, `dev:writeMBps`, `proc:<name>:seconds|MBps|p50|p99`. */
  id: string
  label: string
  unit: string
  /** The column group: `run`, `device` or the process's name. */
  group: string
  /**
   * Which way is better; null where no way is: the time of a time-based job (it ran for a given
   * time), the run's length when a time limit ended it.
   */
  better: 'higher' | 'lower' | null
  /** How significance is judged: across repetitions, on the latency distributions, or not at all. */
  test: 'welch' | 'mann-whitney' | 'none'
}

/** One set's figure for one metric; null numbers are "not measured" or "not computable". */
export interface CompareCell {
  /** Repetitions with a value (latency from histograms: operations). */
  n: number
  value: number | null
  /** Half-width of the 95 % confidence interval of the mean (repetitions ≥ 2). */
  ci95: number | null
  /** (value − baseline) / baseline × 100; null for the baseline itself. */
  diffPercent: number | null
  /** Two-sided p-value of the test against the baseline. */
  p: number | null
  significant: boolean
  /** The repetitions vary by more than 5 % of their mean. */
  noisy: boolean
}

export interface CompareSetRow {
  ref: RunSetRef
  session: string
  facts: RunSetFacts
  /** Each repetition's run time in increasing order, and their mean: as kernel mailing-list posts list them. */
  times: { ordered: number[]; mean: number | null }
  /** Its processes by their own names (instances counted as one), before any renaming. */
  processes: string[]
}

export interface LibraryComparison {
  alpha: number
  /** Index of the baseline in `sets`. */
  baseline: number
  sets: CompareSetRow[]
  metrics: CompareMetric[]
  /**
   * The metric to show first, as the workload makes sense of it: the time of jobs of fixed size
   * (the run's, when every job is), else the throughput of time-based ones.
   */
  defaultMetric: string
  /** `cells[set][metric]`; null when the set has no such figure (a process it does not run). */
  cells: (CompareCell | null)[][]
}

export interface CompareSetInput {
  ref: RunSetRef
  session: string
  facts: RunSetFacts
  runs: RunResult[]
}

/** At most this many processes get columns (the baseline's first, then the others'). */
export const MAX_COMPARE_PROCESSES = 8

const num = (v: unknown): number => (typeof v === 'number' ? v : NaN)
const finite = (v: number): number | null => (Number.isFinite(v) ? v : null)

/** Compare every set against `sets[baseline]` at significance level `alpha`. */
export function compareRunSets(sets: CompareSetInput[], baseline = 0, alpha = 0.05): LibraryComparison {
  if (baseline < 0 || baseline >= sets.length)
    throw new RangeError(`no run set ${baseline} to compare against`)
  const own = sets.map((s) => s.runs.map(groupProcesses))
  const grouped = own.map((runs, i) => renamed(runs, sets[i].ref.rename ?? {}, sets[i]))
  const kinds = processKinds(grouped.flat())
  const metrics = metricsOf(sets, grouped, baseline, kinds)
  const cells = grouped.map((runs, i) =>
    metrics.map((m) => cellOf(m, runs, i === baseline ? null : grouped[baseline], alpha)),
  )
  return {
    alpha,
    baseline,
    sets: sets.map((s, i) => {
      const o = orderedWithMean(s.runs.map((r) => r.seconds).filter(Number.isFinite))
      return {
        ref: s.ref,
        session: s.session,
        facts: s.facts,
        times: { ordered: o.ordered, mean: finite(o.mean) },
        processes: processNames(own[i]),
      }
    }),
    metrics,
    defaultMetric: defaultMetricOf(metrics, kinds),
    cells,
  }
}

/** A set's process names, in the order its runs list them. */
function processNames(runs: readonly RunResult[]): string[] {
  const names: string[] = []
  for (const r of runs) for (const p of r.processes) if (!names.includes(p.name)) names.push(p.name)
  return names
}

/**
 * A set's runs with its processes renamed as its ref asks. A name it does not have, or a renaming
 * that would give two of its processes one name, is refused, naming the set.
 */
function renamed(runs: RunResult[], rename: Record<string, string>, set: CompareSetInput): RunResult[] {
  const from = Object.keys(rename)
  if (from.length === 0) return runs
  const names = processNames(runs)
  const where = `run set "${set.facts.label}" of “${set.session}”`
  for (const n of from)
    if (!names.includes(n))
      throw new RangeError(`${where} has no process "${n}" to compare as "${rename[n]}"`)
  const after = names.map((n) => rename[n] ?? n)
  const twice = after.find((n, i) => after.indexOf(n) !== i)
  if (twice !== undefined)
    throw new RangeError(`${where}: two of its processes would both be compared as "${twice}"`)
  return runs.map((r) => ({
    ...r,
    processes: r.processes.map((p) => (rename[p.name] ? { ...p, name: rename[p.name] } : p)),
  }))
}

/**
 * Time for jobs of fixed size, throughput for time-based ones: the run's time when every job is of
 * fixed size and the run ended with them; else the first fixed-size job's time; else the first
 * time-based job's throughput (or the device's).
 */
export function defaultMetricOf(
  metrics: readonly CompareMetric[],
  kinds: ReadonlyMap<string, string>,
): string {
  const has = (id: string): boolean => metrics.some((m) => m.id === id)
  const procs = [...new Set(metrics.filter((m) => m.id.startsWith('proc:')).map((m) => m.group))]
  const fixed = procs.filter((n) => kinds.get(n) !== 'time-based')
  const run = metrics.find((m) => m.id === 'run:seconds')
  if (run?.better && fixed.length === procs.length) return run.id
  if (fixed.length > 0 && has(`proc:${fixed[0]}:seconds`)) return `proc:${fixed[0]}:seconds`
  for (const n of procs) if (has(`proc:${n}:MBps`)) return `proc:${n}:MBps`
  for (const id of ['dev:readMBps', 'dev:writeMBps']) if (has(id)) return id
  return metrics[0]?.id ?? ''
}

function metricsOf(
  sets: CompareSetInput[],
  grouped: RunResult[][],
  baseline: number,
  kinds: ReadonlyMap<string, string>,
): CompareMetric[] {
  const all = grouped.flat()
  const some = (f: (r: RunResult) => number): boolean => all.some((r) => num(f(r)) > 0)
  const out: CompareMetric[] = [
    {
      id: 'run:seconds',
      label: 'run time',
      unit: 's',
      group: 'run',
      better: runLengthMeaningful(all) ? 'lower' : null,
      test: 'welch',
    },
  ]
  if (some((r) => r.totals.readMBps))
    out.push({
      id: 'dev:readMBps',
      label: 'read',
      unit: 'MB/s',
      group: 'device',
      better: 'higher',
      test: 'welch',
    })
  if (some((r) => r.totals.writeMBps))
    out.push({
      id: 'dev:writeMBps',
      label: 'write',
      unit: 'MB/s',
      group: 'device',
      better: 'higher',
      test: 'welch',
    })
  if (some((r) => r.totals.readIops))
    out.push({
      id: 'dev:readIops',
      label: 'read',
      unit: 'IOPS',
      group: 'device',
      better: 'higher',
      test: 'welch',
    })
  if (some((r) => r.totals.writeIops))
    out.push({
      id: 'dev:writeIops',
      label: 'write',
      unit: 'IOPS',
      group: 'device',
      better: 'higher',
      test: 'welch',
    })
  const names: string[] = []
  for (const i of [baseline, ...sets.keys()])
    for (const r of grouped[i]) for (const p of r.processes) if (!names.includes(p.name)) names.push(p.name)
  for (const name of names.slice(0, MAX_COMPARE_PROCESSES)) {
    const ps = all.flatMap((r) => r.processes.filter((p) => p.name === name))
    const m = (
      id: string,
      label: string,
      unit: string,
      better: CompareMetric['better'],
      test: CompareMetric['test'],
    ) => out.push({ id: `proc:${name}:${id}`, label, unit, group: name, better, test })
    m('seconds', 'time', 's', kinds.get(name) === 'time-based' ? null : 'lower', 'welch')
    if (ps.some((p) => num(p.MBps) > 0)) m('MBps', 'rate', 'MB/s', 'higher', 'welch')
    if (ps.some((p) => num(p.ops) > 0 && num(p.seconds) > 0)) m('IOPS', 'IOPS', 'op/s', 'higher', 'welch')
    if (ps.some((p) => Number.isFinite(num(p.latencyMs?.p50)))) {
      m('p50', 'p50 latency', 'ms', 'lower', 'mann-whitney')
      m('p95', 'p95 latency', 'ms', 'lower', 'none')
      m('p99', 'p99 latency', 'ms', 'lower', 'none')
      m('p999', 'p99.9 latency', 'ms', 'lower', 'none')
    }
  }
  return out
}

const counted = (ops: number, bytes: number): number => (num(ops) > 0 || !(num(bytes) > 0) ? num(ops) : NaN)

/** The values of a repetition-level metric, one per run that has it. */
function valuesOf(id: string, runs: RunResult[]): number[] {
  const out: number[] = []
  for (const r of runs) {
    let v = NaN
    if (id === 'run:seconds') v = num(r.seconds)
    else if (id === 'dev:readMBps') v = num(r.totals.readMBps)
    else if (id === 'dev:writeMBps') v = num(r.totals.writeMBps)
    // bytes moved with no operation counted: the tool did not count them (bonnie++, dd), not none
    else if (id === 'dev:readIops') v = counted(r.totals.readIops, r.totals.readBytes)
    else if (id === 'dev:writeIops') v = counted(r.totals.writeIops, r.totals.writeBytes)
    else {
      const [, name, what] = splitProcessMetric(id)
      const p = r.processes.find((x) => x.name === name)
      if (!p) continue
      v =
        what === 'seconds'
          ? num(p.seconds)
          : what === 'MBps'
            ? num(p.MBps)
            : what === 'IOPS'
              ? num(p.seconds) > 0
                ? counted(p.ops, p.bytes) / num(p.seconds)
                : NaN
              : num(p.latencyMs?.[what as 'p50'])
    }
    if (Number.isFinite(v)) out.push(v)
  }
  return out
}

function splitProcessMetric(id: string): [string, string, string] {
  const last = id.lastIndexOf(':')
  return ['proc', id.slice(5, last), id.slice(last + 1)]
}

/** Every operation of every repetition of a process: the histograms merged (null without any). */
function mergedLatency(id: string, runs: RunResult[]): LatencyHistogram | null {
  const [, name] = splitProcessMetric(id)
  const h = new LatencyHistogram()
  for (const r of runs)
    for (const p of r.processes)
      if (p.name === name && p.latency && p.latency.count > 0) h.merge(LatencyHistogram.fromJSON(p.latency))
  return h.count > 0 ? h : null
}

/** A process's latency metrics, by the end of their id, and the percentile each is. */
const LATENCY_PERCENTILES: Readonly<Record<string, number>> = { p50: 50, p95: 95, p99: 99, p999: 99.9 }

function cellOf(
  m: CompareMetric,
  runs: RunResult[],
  base: RunResult[] | null,
  alpha: number,
): CompareCell | null {
  const pct = LATENCY_PERCENTILES[m.id.slice(m.id.lastIndexOf(':') + 1)]
  const isLatency = m.id.startsWith('proc:') && pct !== undefined
  if (m.id.startsWith('proc:')) {
    const [, name] = splitProcessMetric(m.id)
    if (!runs.some((r) => r.processes.some((p) => p.name === name))) return null
  }
  const values = valuesOf(m.id, runs)
  if (isLatency) {
    const h = mergedLatency(m.id, runs)
    const hb = base ? mergedLatency(m.id, base) : null
    // The percentile of all operations together when the histograms are there, else the mean of the runs' figures.
    const value = h ? h.percentile(pct) / 1e6 : summarize(values).mean
    const bValue = base ? (hb ? hb.percentile(pct) / 1e6 : summarize(valuesOf(m.id, base)).mean) : NaN
    const test = m.test === 'mann-whitney' && h && hb ? mannWhitneyHistograms(hb.toJSON(), h.toJSON()) : null
    const p = test ? test.p : NaN
    return {
      n: h ? h.count : values.length,
      value: finite(value),
      ci95: h ? null : finite(summarize(values).ci95),
      diffPercent: base ? finite(bValue !== 0 ? ((value - bValue) / Math.abs(bValue)) * 100 : NaN) : null,
      p: finite(p),
      significant: p < alpha,
      noisy: !h && isNoisy(values),
    }
  }
  const s = summarize(values)
  if (values.length === 0)
    return { n: 0, value: null, ci95: null, diffPercent: null, p: null, significant: false, noisy: false }
  const c = base ? compare(valuesOf(m.id, base), values, alpha) : null
  return {
    n: values.length,
    value: finite(s.mean),
    ci95: finite(s.ci95),
    diffPercent: c ? finite(c.diffPercent) : null,
    p: c ? finite(c.welch.p) : null,
    significant: c ? c.significant : false,
    noisy: isNoisy(values),
  }
}
