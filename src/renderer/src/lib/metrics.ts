// The metrics of a result, as data: the comparison table's columns and the sweep chart's y axis
// ("any metric on any axis") both come from this list.
import type { LabelSummary } from '../../../shared/experiment/compare'
import type { ProcessKind } from '../../../shared/experiment/process-kind'
import type { Summary } from '../../../shared/metrics/stats'

export interface Metric {
  id: string
  /** Column group (a process name, or "device"). */
  group: string
  label: string
  unit: string
  /**
   * Which way is better, for highlighting; null: neither (a share of time busy, the time of a
   * time-based job, the run's length).
   */
  better: 'higher' | 'lower' | null
  get(s: LabelSummary): Summary | undefined
}

/** A share (0 … 1) as a percentage. */
const percent = (s: Summary): Summary => ({
  ...s,
  mean: s.mean * 100,
  median: s.median * 100,
  stddev: s.stddev * 100,
  ci95: s.ci95 * 100,
  min: s.min * 100,
  max: s.max * 100,
})

/** How the workload makes sense of the figures: each process's kind (absent: of fixed size). */
export type Kinds = ReadonlyMap<string, ProcessKind>

const perProcess = (name: string, kinds?: Kinds): Metric[] => {
  const p = (s: LabelSummary) => s.processes.find((x) => x.name === name)
  return [
    {
      id: `${name}:MBps`,
      group: name,
      label: 'throughput',
      unit: 'MB/s',
      better: 'higher',
      get: (s) => p(s)?.MBps,
    },
    {
      id: `${name}:seconds`,
      group: name,
      label: 'time',
      unit: 's',
      // a time-based job ran for the time it was given: its time ranks nothing
      better: kinds?.get(name) === 'time-based' ? null : 'lower',
      get: (s) => p(s)?.seconds,
    },
    {
      id: `${name}:p50`,
      group: name,
      label: 'p50',
      unit: 'ms',
      better: 'lower',
      get: (s) => p(s)?.latencyMs.p50,
    },
    {
      id: `${name}:p99`,
      group: name,
      label: 'p99',
      unit: 'ms',
      better: 'lower',
      get: (s) => p(s)?.latencyMs.p99,
    },
    {
      id: `${name}:max`,
      group: name,
      label: 'max',
      unit: 'ms',
      better: 'lower',
      get: (s) => p(s)?.latencyMs.max,
    },
  ]
}

const device: Metric[] = [
  {
    id: 'dev:readMBps',
    group: 'device',
    label: 'read',
    unit: 'MB/s',
    better: 'higher',
    get: (s) => s.device.readMBps,
  },
  {
    id: 'dev:writeMBps',
    group: 'device',
    label: 'write',
    unit: 'MB/s',
    better: 'higher',
    get: (s) => s.device.writeMBps,
  },
  {
    id: 'dev:util',
    group: 'device',
    label: 'busy',
    unit: '%',
    better: null,
    get: (s) => percent(s.device.utilisation),
  },
  {
    id: 'dev:seek',
    group: 'device',
    label: 'mean seek',
    unit: 'sectors',
    better: 'lower',
    get: (s) => s.device.meanSeekSectors,
  },
  { id: 'run:seconds', group: 'device', label: 'run length', unit: 's', better: null, get: (s) => s.seconds },
]

/** Process names in first-seen order over the rows. */
export function processNames(rows: readonly LabelSummary[]): string[] {
  const out: string[] = []
  for (const r of rows) for (const p of r.processes) if (!out.includes(p.name)) out.push(p.name)
  return out
}

/** Every metric of these rows: per process, then the device. */
export function metricsOf(
  rows: readonly LabelSummary[],
  procs = processNames(rows),
  kinds?: Kinds,
): Metric[] {
  return [...procs.flatMap((p) => perProcess(p, kinds)), ...device]
}

/** The table's compact set: per process MB/s, time and p99; device read and write. */
export function tableMetrics(procs: string[], kinds?: Kinds): Metric[] {
  const keep = new Set(['throughput', 'time', 'p99'])
  return [
    ...procs.flatMap((p) => perProcess(p, kinds)).filter((m) => keep.has(m.label)),
    ...device.filter((m) => m.id !== 'dev:seek'),
  ]
}

/**
 * The best rows for a metric (by mean): every row at the best value (a tie is a tie), none when it
 * has no direction, fewer than two rows have it, or all of them are at the same value (then no
 * row is better than another).
 */
export function bestRows(m: Metric, rows: readonly LabelSummary[]): Set<number> {
  const out = new Set<number>()
  const i = bestIndex(m, rows)
  if (i < 0) return out
  const bestV = m.get(rows[i])!.mean
  const same = (v: number): boolean => Math.abs(v - bestV) <= 1e-9 * Math.max(Math.abs(v), Math.abs(bestV))
  let values = 0
  rows.forEach((r, k) => {
    const v = m.get(r)?.mean
    if (v === undefined || !Number.isFinite(v)) return
    values++
    if (same(v)) out.add(k)
  })
  if (values < 2 || out.size === values) out.clear()
  return out
}

/** Index of the best row for a metric (by mean), or -1 when it has no direction or one row. */
export function bestIndex(m: Metric, rows: readonly LabelSummary[]): number {
  if (!m.better || rows.length < 2) return -1
  let best = -1
  let bestV = NaN
  rows.forEach((r, i) => {
    const v = m.get(r)?.mean
    if (v === undefined || !Number.isFinite(v)) return
    if (best < 0 || (m.better === 'higher' ? v > bestV : v < bestV)) {
      best = i
      bestV = v
    }
  })
  return best
}
