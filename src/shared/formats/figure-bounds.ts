import { ImportError } from './import-error'

/**
 * What a measured figure can be. Every importer checks the figures it reads from a tool's output
 * against these bounds (and `checkImportedRun` checks every run it makes), so a typo, an overflow
 * (`1.5e+400` reads as Infinity), a clock that jumped or a damaged file is refused with its line
 * and field instead of landing in a session as an impossible run. Each bound is data: its unit,
 * its range and why the range holds (docs/run-json.md, "Imported runs", lists them).
 */
export interface FigureBound {
  /** What the figure is, in messages: `throughput`, `duration` … */
  name: string
  unit: string
  min: number
  /** The figure must be above `min`, not equal to it. */
  minExclusive?: boolean
  max: number
  /** Why a figure outside [min, max] cannot be a measurement. */
  reason: string
}

export const FIGURE_BOUNDS = {
  throughput: {
    name: 'throughput',
    unit: 'B/s',
    min: 0,
    max: 1e12,
    reason:
      'more than 1 TB/s is more than any block device interface carries (PCIe 6.0 ×16 moves about 128 GB/s), even striped',
  },
  iops: {
    name: 'operation rate',
    unit: 'IOPS',
    min: 0,
    max: 1e9,
    reason: 'a billion I/Os per second is a hundred times what the fastest NVMe devices complete',
  },
  duration: {
    name: 'duration',
    unit: 's',
    min: 0,
    minExclusive: true,
    max: 1e8,
    reason: 'a measurement lasts more than 0 s, and less than 10^8 s (about three years)',
  },
  time: {
    name: 'time',
    unit: 's',
    min: 0,
    max: 1e8,
    reason: 'a time, runtime or latency of a benchmark lies between 0 and 10^8 s (about three years)',
  },
  bytes: {
    name: 'byte count',
    unit: 'bytes',
    min: 0,
    max: 2 ** 53,
    reason: 'more than 2^53 bytes (9 PB) is beyond any benchmark run, and beyond what a number holds exactly',
  },
  count: {
    name: 'count',
    unit: '',
    min: 0,
    max: 2 ** 53,
    reason: 'a count of operations, records or samples is a whole number from 0 to 2^53',
  },
} satisfies Record<string, FigureBound>

export type FigureKind = keyof typeof FIGURE_BOUNDS

/** 4 significant digits, in exponent form outside 10^-4 … 10^6: `1e+12`, `9.007e+15`, `0.5`. */
function show(v: number): string {
  if (!Number.isFinite(v) || v === 0) return `${v}`
  if (Math.abs(v) >= 1e6 || Math.abs(v) < 1e-4) {
    const [mantissa, exp] = v.toExponential(3).split('e')
    return `${mantissa.replace(/\.?0+$/, '')}e${exp}`
  }
  return `${Number(v.toPrecision(6))}`
}

/** Why `value` cannot be a `kind` figure, or null when it can. */
export function figureProblem(kind: FigureKind, value: number, printed?: string): string | null {
  const b: FigureBound = FIGURE_BOUNDS[kind]
  const unit = b.unit ? ` ${b.unit}` : ''
  const what = printed === undefined ? `${show(value)}${unit}` : `${printed} (${show(value)}${unit})`
  if (Number.isNaN(value)) return `impossible ${b.name}: ${printed ?? 'NaN'} is not a number`
  if (!Number.isFinite(value)) return `impossible ${b.name}: ${what} is not finite`
  const low = b.minExclusive ? value <= b.min : value < b.min
  if (low || value > b.max) {
    const range = `${b.minExclusive ? '>' : '≥'} ${show(b.min)} and ≤ ${show(b.max)}${unit}`
    return `impossible ${b.name}: ${what}; a measured ${b.name} is ${range}: ${b.reason}`
  }
  return null
}

/**
 * `value` as a `kind` figure read at `line` (1-based) in `field`, or an ImportError saying why it
 * cannot be one. `printed` is the text the tool printed, when it differs from the value's unit.
 */
export function checkFigure(
  kind: FigureKind,
  value: number,
  line: number,
  field: string | null,
  printed?: string,
): number {
  const p = figureProblem(kind, value, printed)
  if (p !== null) throw new ImportError(p, line, field)
  return value
}

/** Times in file order must not go backwards: `time` after `previous` (both in the same unit). */
export function checkNotBefore(
  time: number,
  previous: number | null,
  line: number,
  field: string,
  shown: (t: number) => string = String,
  hint = 'a clock that was set back, or lines out of order',
): void {
  if (previous !== null && time < previous)
    throw new ImportError(
      `time goes backwards: ${shown(time)} comes after ${shown(previous)} on an earlier line (${hint})`,
      line,
      field,
    )
}
