import { summarize } from '../metrics/stats'
import type { Summary } from '../metrics/stats'
import type { ResolvedSpec } from './resolved'
import type { RunResult } from './result'

/** Per scheduler label, over its repetitions: the side-by-side table's row. */
export interface LabelSummary {
  label: string
  scheduler: string
  source: RunResult['source']
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
  /** Repetitions in which it finished. */
  finished: number
  latencyMs: { p50: Summary; p90: Summary; p99: Summary; p999: Summary; max: Summary; mean: Summary }
}

/** The whole outcome of an experiment: the spec as run, every run, and the summary rows. */
export interface ExperimentResult {
  schema: 'iosched-lab/experiment@1'
  name: string
  spec: ResolvedSpec
  runs: RunResult[]
  summary: LabelSummary[]
}

/** Group runs by label (in first-seen order) and summarise each metric over repetitions. */
export function summarizeRuns(runs: readonly RunResult[]): LabelSummary[] {
  const groups = new Map<string, RunResult[]>()
  for (const r of runs) {
    const key = `${r.source}:${r.label}`
    const g = groups.get(key)
    if (g) g.push(r)
    else groups.set(key, [r])
  }
  const out: LabelSummary[] = []
  for (const rs of groups.values()) {
    const names: string[] = []
    for (const r of rs) for (const p of r.processes) if (!names.includes(p.name)) names.push(p.name)
    const of = (f: (r: RunResult) => number): Summary => summarize(rs.map(f))
    out.push({
      label: rs[0].label,
      scheduler: rs[0].scheduler,
      source: rs[0].source,
      repetitions: rs.length,
      seconds: of((r) => r.seconds),
      processes: names.map((n) => {
        const ps = rs.map((r) => r.processes.find((p) => p.name === n)).filter((p) => p !== undefined)
        const s = (f: (p: (typeof ps)[number]) => number): Summary => summarize(ps.map(f))
        return {
          name: n,
          bytes: s((p) => p.bytes),
          seconds: s((p) => p.seconds),
          MBps: s((p) => p.MBps),
          finished: ps.filter((p) => p.finished).length,
          latencyMs: {
            p50: s((p) => p.latencyMs.p50),
            p90: s((p) => p.latencyMs.p90),
            p99: s((p) => p.latencyMs.p99),
            p999: s((p) => p.latencyMs.p999),
            max: s((p) => p.latencyMs.max),
            mean: s((p) => p.latencyMs.mean),
          },
        }
      }),
      device: {
        readMBps: of((r) => r.totals.readMBps),
        writeMBps: of((r) => r.totals.writeMBps),
        readIops: of((r) => r.totals.readIops),
        writeIops: of((r) => r.totals.writeIops),
        utilisation: of((r) => r.totals.utilisation),
        meanSeekSectors: of((r) => r.totals.meanSeekSectors),
      },
    })
  }
  return out
}
