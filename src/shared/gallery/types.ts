import type { SweepSpec } from '../api/sweep'

/**
 * A gallery entry: a ready experiment (one or more variants, each a spec, optionally swept along
 * a parameter), a page on what it shows, the figures published for it, and the claims the
 * simulation must meet to count as reproducing it.
 */
export interface GalleryEntry {
  name: string
  /** Place in the gallery's listing. */
  order: number
  title: string
  /** Where the measurement comes from. */
  source: string
  /** A short page (Markdown) on what it shows. */
  about: string
  variants: GalleryVariant[]
  published: PublishedFigure[]
  claims: Claim[]
}

export interface GalleryVariant {
  id: string
  title: string
  spec: unknown
  /** Run the spec once per value of a parameter (e.g. dd's block size). */
  sweep?: SweepSpec
}

/**
 * Names one number in the results: a metric of a process (or one of its phases) or of the
 * device, in one variant's run of one scheduler label (and, for a swept variant, one value).
 */
export interface MetricRef {
  variant: string
  label: string
  /** For a swept variant: the value of the swept parameter. */
  value?: string | number | boolean
  process?: string
  phase?: string
  metric: Metric
}

export type Metric =
  | 'seconds'
  | 'MBps'
  | 'opsPerSecond'
  | 'bytes'
  | 'bytesPerSecond'
  | 'readMBps'
  | 'writeMBps'
  | 'p50Ms'
  | 'p99Ms'
  | 'maxMs'
  /** Device only: a simulated disk's total head movement (DeviceTotals.seekCylinders). */
  | 'seekCylinders'

export interface PublishedFigure extends MetricRef {
  value_published: number
  unit: string
}

/** A claim: a relation between simulated numbers that the published measurement shows. */
export type Claim = { id: string; text: string } & (
  | { kind: 'ratio'; a: MetricRef; b: MetricRef; min?: number; max?: number }
  | { kind: 'range'; x: MetricRef; min?: number; max?: number }
  | { kind: 'between'; x: MetricRef; lo: MetricRef; hi: MetricRef }
  | { kind: 'close'; a: MetricRef; b: MetricRef; tolerance: number }
)

export interface ClaimVerdict {
  id: string
  text: string
  pass: boolean
  /** What was compared, with the numbers. */
  detail: string
}
