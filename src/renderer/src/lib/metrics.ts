// The metrics of a result, as data: the comparison table's columns and the sweep chart's y axis
// ("any metric on any axis") both come from this list.
import type { LabelSummary } from '../../../shared/experiment/compare'
import type { ProcessKind } from '../../../shared/experiment/process-kind'
import type { Summary } from '../../../shared/metrics/stats'
import { num } from '../../../shared/util/people-numbers'

export interface Metric {
  id: string
  /** Column group (a process name, or "device"). */
  group: string
  label: string
  unit: string
  /** The column picker's key: one choice shows or hides this column of every process. */
  column: string
  /**
   * Which way is better, for highlighting; null: neither (a share of time busy, the time of a
   * time-based job, the run's length).
   */
  better: 'higher' | 'lower' | null
  get(s: LabelSummary): Summary | undefined
}

/** A column the table can show, as the column picker lists it. */
export interface Column {
  key: string
  title: string
  /** Shown until the user says otherwise. */
  shown: boolean
}

/** Every column of the comparison table, in the table's order: per process, then the device. */
export const COLUMNS: readonly Column[] = [
  { key: 'MBps', title: 'throughput, MB/s', shown: true },
  { key: 'IOPS', title: 'IOPS', shown: true },
  { key: 'seconds', title: 'time, s', shown: true },
  { key: 'p50', title: 'latency p50', shown: false },
  { key: 'p95', title: 'latency p95', shown: false },
  { key: 'p99', title: 'latency p99', shown: true },
  { key: 'p999', title: 'latency p99.9', shown: false },
  { key: 'max', title: 'latency max', shown: false },
  { key: 'slat', title: 'fio slat (submission) p50 … max', shown: false },
  { key: 'lat', title: 'fio lat (total) p50 … max', shown: false },
  { key: 'phases', title: 'per phase (bonnie++ K/sec, seeks/s, creates/s)', shown: true },
  { key: 'dev:readMBps', title: 'device read, MB/s', shown: true },
  { key: 'dev:writeMBps', title: 'device write, MB/s', shown: true },
  { key: 'dev:readIops', title: 'device read IOPS', shown: true },
  { key: 'dev:writeIops', title: 'device write IOPS', shown: true },
  { key: 'dev:util', title: 'device busy, %', shown: true },
  { key: 'dev:seek', title: 'mean seek, sectors', shown: false },
  { key: 'run:seconds', title: 'run length, s', shown: true },
]

/**
 * The column kind of a library comparison's metric (shared/library/compare.ts's ids): `run:seconds`
 * and `dev:…` as they are, a process's `proc:<name>:<kind>` by its kind (`p95`, `MBps` …).
 */
export function compareColumn(id: string): string {
  if (!id.startsWith('proc:')) return id
  return id.slice(id.lastIndexOf(':') + 1)
}

/** The columns shown at first. */
export const DEFAULT_COLUMNS: readonly string[] = COLUMNS.filter((c) => c.shown).map((c) => c.key)

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
  const latency = (column: 'p50' | 'p95' | 'p99' | 'p999' | 'max', label: string): Metric => ({
    id: `${name}:${column}`,
    group: name,
    label,
    unit: 'ms',
    column,
    better: 'lower',
    get: (s) => p(s)?.latencyMs[column],
  })
  return [
    {
      id: `${name}:MBps`,
      group: name,
      label: 'throughput',
      unit: 'MB/s',
      column: 'MBps',
      better: 'higher',
      get: (s) => p(s)?.MBps,
    },
    {
      id: `${name}:IOPS`,
      group: name,
      label: 'IOPS',
      unit: 'op/s',
      column: 'IOPS',
      better: 'higher',
      get: (s) => p(s)?.IOPS,
    },
    {
      id: `${name}:seconds`,
      group: name,
      label: 'time',
      unit: 's',
      column: 'seconds',
      // a time-based job ran for the time it was given: its time ranks nothing
      better: kinds?.get(name) === 'time-based' ? null : 'lower',
      get: (s) => p(s)?.seconds,
    },
    latency('p50', 'p50'),
    latency('p95', 'p95'),
    latency('p99', 'p99'),
    latency('p999', 'p99.9'),
    latency('max', 'max'),
  ]
}

/** fio's submission or total latency of a process, where any row has it (fio runs, real or imported). */
const perStage = (name: string, rows: readonly LabelSummary[], stage: 'slat' | 'lat'): Metric[] => {
  const key = stage === 'slat' ? 'slatMs' : 'latMs'
  const p = (s: LabelSummary) => s.processes.find((x) => x.name === name)?.[key]
  if (!rows.some((r) => p(r))) return []
  const points = [
    ['p50', 'p50'],
    ['p95', 'p95'],
    ['p99', 'p99'],
    ['p999', 'p99.9'],
    ['max', 'max'],
  ] as const
  return points.map(([k, label]) => ({
    id: `${name}:${stage}:${k}`,
    group: name,
    label: `${stage} ${label}`,
    unit: 'ms',
    column: stage,
    better: 'lower' as const,
    get: (s: LabelSummary) => p(s)?.[k],
  }))
}

/** A process's phases (bonnie++'s tests), as any row reports them, in first-seen order. */
const perPhase = (name: string, rows: readonly LabelSummary[]): Metric[] => {
  const seen = new Map<string, { title: string; unit: string }>()
  for (const r of rows)
    for (const ph of r.processes.find((x) => x.name === name)?.phases ?? [])
      if (!seen.has(ph.name)) seen.set(ph.name, { title: ph.title, unit: ph.unit })
  return [...seen].map(([phase, { title, unit }]) => ({
    id: `${name}:phase:${phase}`,
    group: name,
    label: title,
    unit,
    column: 'phases',
    better: 'higher' as const,
    get: (s: LabelSummary) =>
      s.processes.find((x) => x.name === name)?.phases?.find((ph) => ph.name === phase)?.rate,
  }))
}

const device: Metric[] = [
  {
    id: 'dev:readMBps',
    group: 'device',
    label: 'read',
    unit: 'MB/s',
    column: 'dev:readMBps',
    better: 'higher',
    get: (s) => s.device.readMBps,
  },
  {
    id: 'dev:writeMBps',
    group: 'device',
    label: 'write',
    unit: 'MB/s',
    column: 'dev:writeMBps',
    better: 'higher',
    get: (s) => s.device.writeMBps,
  },
  {
    id: 'dev:readIops',
    group: 'device',
    label: 'read',
    unit: 'IOPS',
    column: 'dev:readIops',
    better: 'higher',
    get: (s) => s.device.readIops,
  },
  {
    id: 'dev:writeIops',
    group: 'device',
    label: 'write',
    unit: 'IOPS',
    column: 'dev:writeIops',
    better: 'higher',
    get: (s) => s.device.writeIops,
  },
  {
    id: 'dev:util',
    group: 'device',
    label: 'busy',
    unit: '%',
    column: 'dev:util',
    better: null,
    get: (s) => percent(s.device.utilisation),
  },
  {
    id: 'dev:seek',
    group: 'device',
    label: 'mean seek',
    unit: 'sectors',
    column: 'dev:seek',
    better: 'lower',
    get: (s) => s.device.meanSeekSectors,
  },
  {
    id: 'run:seconds',
    group: 'device',
    label: 'run length',
    unit: 's',
    column: 'run:seconds',
    better: null,
    get: (s) => s.seconds,
  },
]

/** Process names in first-seen order over the rows. */
export function processNames(rows: readonly LabelSummary[]): string[] {
  const out: string[] = []
  for (const r of rows) for (const p of r.processes) if (!out.includes(p.name)) out.push(p.name)
  return out
}

/** Every metric of these rows: per process (and its phases), then the device. */
export function metricsOf(
  rows: readonly LabelSummary[],
  procs = processNames(rows),
  kinds?: Kinds,
): Metric[] {
  return [
    ...procs.flatMap((p) => [
      ...perProcess(p, kinds),
      ...perStage(p, rows, 'slat'),
      ...perStage(p, rows, 'lat'),
      ...perPhase(p, rows),
    ]),
    ...device,
  ]
}

/**
 * The table's columns: every metric of these rows whose column is shown (`shown`, the column
 * picker's choice; the defaults without one).
 */
export function tableMetrics(
  procs: string[],
  kinds?: Kinds,
  rows: readonly LabelSummary[] = [],
  shown: readonly string[] = DEFAULT_COLUMNS,
): Metric[] {
  const keep = new Set(shown)
  return metricsOf(rows, procs, kinds).filter((m) => keep.has(m.column))
}

/**
 * The best rows for a metric (by mean): every row at the best value (a tie is a tie), none when it
 * has no direction, fewer than two rows have it, or all of them are at the same value (then no
 * row is better than another). Values that read the same at the table's three significant figures
 * are a tie: 294 is not "best" beside another 294 for a difference the table does not show.
 */
export function bestRows(m: Metric, rows: readonly LabelSummary[]): Set<number> {
  const out = new Set<number>()
  const i = bestIndex(m, rows)
  if (i < 0) return out
  const bestV = m.get(rows[i])!.mean
  const shown = num(bestV)
  const same = (v: number): boolean =>
    Math.abs(v - bestV) <= 1e-9 * Math.max(Math.abs(v), Math.abs(bestV)) || num(v) === shown
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
