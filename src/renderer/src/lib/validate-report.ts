// A validation report (docs/validate-json.md) as the Devices view shows it: the three verdicts
// against their targets, per workload one row per scheduler × process, and the scheduler pairs
// the kernel separated with how the simulation ordered each. Over HTTP a NaN arrives as null:
// both read as "no figure".
import type { ValidateReport } from '../../../shared/validate/report'

export type Workload = ValidateReport['workloads'][number]

/** A figure, or null when there is none (NaN, or null after JSON). */
export const figure = (x: number | null | undefined): number | null =>
  typeof x === 'number' && Number.isFinite(x) ? x : null

export interface Verdict {
  key: 'orderedShare' | 'medianCdfRelative' | 'fingerprintResidual'
  what: string
  /** The figure as a share (0.9 = 90 %), null when there is none. */
  value: number | null
  /** Beside the share: "3 of 4 pairs", "over 12 cells". */
  detail: string
  /** "≥ 90 %", "≤ 25 %". */
  target: string
  met: boolean
  /** Nothing to judge (no pair the kernel separated): neither met nor missed, whatever `met` says. */
  vacuous?: boolean
}

const pctText = (x: number): string => `${Math.round(x * 1000) / 10} %`

export function verdicts(r: ValidateReport): Verdict[] {
  const s = r.summary
  return [
    {
      key: 'orderedShare',
      what: 'Separable scheduler pairs ordered as the kernel ordered them',
      value: s.separablePairs > 0 ? figure(s.orderedShare) : null,
      detail:
        (s.separablePairs > 0
          ? `${s.orderedSame} of ${s.separablePairs} pairs (of ${s.pairs} compared)`
          : `the kernel separated none of the ${s.pairs} pairs beyond the noise: nothing to order`) +
        (s.uncorrected
          ? `; each tested alone at p < 0.05, ${s.uncorrected.orderedSame} of ${s.uncorrected.separablePairs}`
          : ''),
      target: `≥ ${pctText(s.targets.orderedShare)}`,
      met: s.met.orderedShare,
      ...(s.separablePairs === 0 ? { vacuous: true } : {}),
    },
    {
      key: 'medianCdfRelative',
      what: 'Latency CDF distance, median over the cells, of the real mean latency',
      value: figure(s.medianCdfRelative),
      detail: `over ${s.cells} cells`,
      target: `≤ ${pctText(s.targets.medianCdfRelative)}`,
      met: s.met.medianCdfRelative,
    },
    {
      key: 'fingerprintResidual',
      what: 'Fingerprint re-simulated: its worst rate or median off by',
      value: figure(s.fingerprintWorstResidual),
      detail: `${Object.keys(r.preset.residuals).length} sweep points, preset ${r.preset.name}`,
      target: `≤ ${pctText(s.targets.fingerprintResidual)}`,
      met: s.met.fingerprintResidual,
    },
  ]
}

export interface CellRow {
  scheduler: string
  process: string
  realMBps: number | null
  realCi: number | null
  realN: number
  simMBps: number | null
  ratio: number | null
  realP99: number | null
  realP99Ci: number | null
  simP99: number | null
  cdfRelative: number | null
  /** Real and simulated runs of the scheduler. */
  runs: { real: number; simulated: number }
}

/** One row per scheduler × process: throughput, tail latency and the CDF distance side by side. */
export function cellRows(w: Workload): CellRow[] {
  return w.cells
    .filter((c) => c.metric === 'MBps')
    .map((c) => {
      const p99 = w.cells.find(
        (x) => x.metric === 'p99Ms' && x.scheduler === c.scheduler && x.process === c.process,
      )
      const cdf = w.cdf.find((x) => x.scheduler === c.scheduler && x.process === c.process)
      return {
        scheduler: c.scheduler,
        process: c.process,
        realMBps: figure(c.real.mean),
        realCi: figure(c.real.ci95),
        realN: c.real.n,
        simMBps: figure(c.simulated.mean),
        ratio: figure(c.ratio),
        realP99: figure(p99?.real.mean),
        realP99Ci: figure(p99?.real.ci95),
        simP99: figure(p99?.simulated.mean),
        cdfRelative: figure(cdf?.relative),
        runs: w.runs[c.scheduler] ?? { real: 0, simulated: 0 },
      }
    })
}

export type SeparablePair = Workload['pairs'][number] & { workload: string }

/** The pairs whose real difference is beyond the noise, over every workload, in the report's order. */
export const separablePairs = (r: ValidateReport): SeparablePair[] =>
  r.workloads.flatMap((w) => w.pairs.filter((p) => p.separable).map((p) => ({ ...p, workload: w.id })))

/** Whether the simulation ranks the schedulers as the kernel did on this workload. */
export const sameRanking = (w: Workload): boolean =>
  w.ranking.real.length === w.ranking.simulated.length &&
  w.ranking.real.every((s, i) => w.ranking.simulated[i] === s)

/**
 * What the rankings' comparison means: the same order; a different one where the kernel separated
 * some of these schedulers (the process's MB/s beyond the noise); or a different one that says
 * nothing, the kernel's own order being noise.
 */
export function rankingNote(w: Workload): string {
  if (sameRanking(w)) return 'the same order'
  const separated = w.pairs.some((p) => p.separable && p.metric === 'MBps' && p.process === w.ranking.process)
  return separated
    ? 'a different order'
    : 'a different order, but the kernel’s is within the noise: it separated none of these schedulers'
}
