import type { RunResult } from '../experiment/result'

/** The formats `detectFormat` recognises and `importText` reads. */
export type ImportFormat =
  'fio-json' | 'bonnie-csv' | 'dd' | 'lmdd' | 'iozone' | 'vmstat' | 'kdiskmark' | 'blkparse'

/** One figure as the tool reported it (or converted), for printing: `null` = not measured (`+++++`). */
export interface Metric {
  name: string
  value: number | null
  unit: string
}

/** One imported run and the figures it was made from. */
export interface ImportedRun {
  run: RunResult
  /** The tool's own figures and their conversions, in the tool's order, each with its unit. */
  metrics: Metric[]
  /** 1-based line of the input the run was read from (its summary, row or first record). */
  line?: number
}

/** A process of a spec that replays what the file recorded (blkparse traces), ready to simulate. */
export interface WorkloadSuggestion {
  name: string
  type: string
  params: Record<string, string | number | boolean>
}

/** Everything read from one file. */
export interface ImportedFile {
  file: string
  format: ImportFormat
  /** The tool that wrote it (`fio`, `bonnie++`, `GNU dd` …) and its version when the file says. */
  tool: string
  version: string | null
  runs: ImportedRun[]
  workload?: WorkloadSuggestion
}

export interface ImportOptions {
  /** Label of the runs; default: the file's name without its extension. */
  label?: string
  /** Scheduler the runs were measured with, when known (files rarely say); default `unknown`. */
  scheduler?: string
  /** Device name, when the file does not say; default `unknown`. */
  device?: string
  /** Sampling interval of a vmstat log without timestamps, seconds (default 1). */
  vmstatIntervalSeconds?: number
}
