import type { LatencySummary } from '../metrics/histogram'
import { phaseRate } from '../metrics/phase-rate'
import type { PhaseRate } from '../metrics/phase-rate'
import { summarize } from '../metrics/stats'
import type { Summary } from '../metrics/stats'
import type { ParamValues } from '../util/params'
import type { ResolvedSpec } from './resolved'
import { runKind } from './result'
import type { RunKind, RunResult } from './result'

/** Per scheduler label, over its repetitions: the side-by-side table's row. */
export interface LabelSummary {
  label: string
  scheduler: string
  source: RunResult['source']
  /** Simulated, real (the lab ran it) or imported (a tool's output): the row's marker. */
  kind: RunKind
  /** The tool that wrote an imported row's runs (`fio`, `bonnie++` …). */
  tool?: string
  /** The scheduler's tunables as run (the first repetition's: they are the same in all). */
  tunables: ParamValues
  repetitions: number
  seconds: Summary
  processes: ProcessSummary[]
  device: {
    readMBps: Summary
    writeMBps: Summary
    readIops: Summary
    writeIops: Summary
    utilisation: Summary
    meanSeekSectors: Summary
  }
}

export interface ProcessSummary {
  name: string
  bytes: Summary
  seconds: Summary
  MBps: Summary
  /** Completed operations per second of its time (ops / seconds). */
  IOPS: Summary
  /** Repetitions in which it finished. */
  finished: number
  latencyMs: {
    p50: Summary
    p90: Summary
    p95: Summary
    p99: Summary
    p999: Summary
    max: Summary
    mean: Summary
  }
  /** fio's submission and total latency (real and imported fio runs; absent when no run has them). */
  slatMs?: LatencySummaries
  latMs?: LatencySummaries
  /** Per phase, for tools that time phases (bonnie++'s K/sec, seeks/s, creates/s …), in their order. */
  phases?: PhaseSummary[]
}

export type LatencySummaries = ProcessSummary['latencyMs']

export interface PhaseSummary {
  name: string
  title: string
  unit: PhaseRate['unit']
  rate: Summary
}

/** The whole outcome of an experiment: the spec as run, every run, and the summary rows. */
export interface ExperimentResult {
  schema: 'iosched-lab/experiment@1'
  name: string
  spec: ResolvedSpec
  runs: RunResult[]
  summary: LabelSummary[]
}

/**
 * A figure as a number: one that was not measured is NaN in a run, but null once the run has been
 * through JSON (a saved session, the lab's API) and absent in a session saved before the figure was
 * kept (p95) — NaN all the same, so it is shown as not measured, never averaged in as 0.
 */
const measured = (v: number | null | undefined): number => (typeof v === 'number' ? v : NaN)

/**
 * Operations, or NaN where bytes moved without any counted: the tool did not count them (bonnie++
 * and dd report no device operations), which is not the same as none.
 */
const countedOps = (ops: number, bytes: number): number => (ops > 0 || !(bytes > 0) ? ops : NaN)

/**
 * A device counter of a run: an imported run's 0 is a tool that did not watch the device (bonnie++,
 * dd, iozone leave them 0), so NaN — not measured; fio's disk_util and blkparse's trace fill them.
 */
const deviceFigure = (r: RunResult, v: number): number => (r.imported && !(v > 0) ? NaN : v)

/** Group runs by label (in first-seen order) and summarise each metric over repetitions. */
export function summarizeRuns(runs: readonly RunResult[]): LabelSummary[] {
  const groups = new Map<string, RunResult[]>()
  for (const r of runs) {
    const key = `${runKind(r)}:${r.label}`
    const g = groups.get(key)
    if (g) g.push(r)
    else groups.set(key, [r])
  }
  const out: LabelSummary[] = []
  for (const rs of groups.values()) {
    const names: string[] = []
    for (const r of rs) for (const p of r.processes) if (!names.includes(p.name)) names.push(p.name)
    const of = (f: (r: RunResult) => number): Summary => summarize(rs.map((r) => measured(f(r))))
    out.push({
      label: rs[0].label,
      scheduler: rs[0].scheduler,
      source: rs[0].source,
      kind: runKind(rs[0]),
      ...(rs[0].imported ? { tool: rs[0].imported.tool } : {}),
      tunables: rs[0].tunables,
      repetitions: rs.length,
      seconds: of((r) => r.seconds),
      processes: names.map((n) => {
        const ps = rs.map((r) => r.processes.find((p) => p.name === n)).filter((p) => p !== undefined)
        const s = (f: (p: (typeof ps)[number]) => number): Summary => summarize(ps.map((p) => measured(f(p))))
        const phases = phasesOf(ps)
        const stage = (k: 'slatMs' | 'latMs'): { [K in typeof k]?: LatencySummaries } => {
          if (!ps.some((p) => p[k])) return {}
          const v = (f: (l: LatencySummary) => number) => s((p) => (p[k] ? f(p[k]) : NaN))
          return {
            [k]: {
              p50: v((l) => l.p50),
              p90: v((l) => l.p90),
              p95: v((l) => l.p95),
              p99: v((l) => l.p99),
              p999: v((l) => l.p999),
              max: v((l) => l.max),
              mean: v((l) => l.mean),
            },
          }
        }
        return {
          name: n,
          bytes: s((p) => p.bytes),
          seconds: s((p) => p.seconds),
          MBps: s((p) => p.MBps),
          IOPS: s((p) => (p.seconds > 0 ? countedOps(p.ops, p.bytes) / p.seconds : NaN)),
          finished: ps.filter((p) => p.finished).length,
          latencyMs: {
            p50: s((p) => p.latencyMs.p50),
            p90: s((p) => p.latencyMs.p90),
            // sessions saved before p95 was kept have none: NaN, shown as not measured
            p95: s((p) => p.latencyMs.p95),
            p99: s((p) => p.latencyMs.p99),
            p999: s((p) => p.latencyMs.p999),
            max: s((p) => p.latencyMs.max),
            mean: s((p) => p.latencyMs.mean),
          },
          ...stage('slatMs'),
          ...stage('latMs'),
          ...(phases.length > 0 ? { phases } : {}),
        }
      }),
      device: {
        readMBps: of((r) => r.totals.readMBps),
        writeMBps: of((r) => r.totals.writeMBps),
        readIops: of((r) => countedOps(r.totals.readIops, r.totals.readBytes)),
        writeIops: of((r) => countedOps(r.totals.writeIops, r.totals.writeBytes)),
        utilisation: of((r) => deviceFigure(r, r.totals.utilisation)),
        meanSeekSectors: of((r) => deviceFigure(r, r.totals.meanSeekSectors)),
      },
    })
  }
  return out
}

/** Each phase's rate over the repetitions, in first-seen order (a phase a repetition lacks is not averaged in). */
function phasesOf(ps: readonly RunResult['processes'][number][]): PhaseSummary[] {
  const by = new Map<string, { title: string; unit: PhaseRate['unit']; values: number[] }>()
  for (const p of ps)
    for (const ph of p.phases ?? []) {
      const r = phaseRate(ph)
      const g = by.get(r.name)
      if (g) g.values.push(r.value)
      else by.set(r.name, { title: r.title, unit: r.unit, values: [r.value] })
    }
  return [...by].map(([name, g]) => ({ name, title: g.title, unit: g.unit, rate: summarize(g.values) }))
}

/**
 * The summary rows of a result, as this version makes them: its own when they were (they carry
 * the row's `kind`), else made again from its runs — a session saved before the rows had their
 * source, tunables, IOPS and p95 shows them all the same.
 */
export function currentSummary(result: Pick<ExperimentResult, 'summary' | 'runs'>): LabelSummary[] {
  return result.summary.every((s) => typeof (s as Partial<LabelSummary>).kind === 'string')
    ? result.summary
    : summarizeRuns(result.runs)
}
