import type { IoPrioClass } from '../block/types'
import type { ParamValues } from '../util/params'
import type { FsSpec } from '../fs/types'

/** A validated experiment with every default filled in: what the runner takes. */
export interface ResolvedSpec {
  name: string
  description: string
  device: { preset: string; model: string; values: ParamValues; capacitySectors: number }
  /** `filesystem` absent: none modelled (specs resolved before file systems existed). */
  host: { preset: string; values: ParamValues; filesystem?: FsSpec }
  files: ResolvedFile[]
  processes: ResolvedProcess[]
  stop: { processes: string[]; maxSeconds: number }
  schedulers: ResolvedScheduler[]
  repetitions: number
  /** Repeat until stable: `repetitions` is the minimum; absent = exactly `repetitions`. */
  untilStable?: UntilStable
  seed: number
}

export interface UntilStable {
  /** Largest coefficient of variation (%) of every process's throughput that counts as stable. */
  cvPercent: number
  /** The cap, whatever the variation. */
  maxRepetitions: number
}

export interface ResolvedFile {
  name: string
  size: number
  /** Start sector, or undefined to follow the previous file. */
  atSector?: number
  extentBytes?: number
  gapBytes?: number
}

export interface ResolvedProcess {
  name: string
  type: string
  params: ParamValues
  startMs: number
  ioClass: IoPrioClass
  ioLevel: number
  nice: number
  /** Anonymous memory the process holds and touches while it runs (absent: none of its own). */
  memory?: ProcessMemory
}

export type TouchPattern = 'hold' | 'sequential' | 'random'

export interface ProcessMemory {
  /** Size, 4 KiB pages. */
  pages: number
  /** After allocating it at start: keep it (hold), or touch it between system calls. */
  pattern: TouchPattern
  /** Pages touched between two system calls of the workload (sequential, random). */
  pagesPerCall: number
}

export interface ResolvedScheduler {
  /** Canonical name from the registry. */
  name: string
  label: string
  tunables: ParamValues
}
