// Events of a gallery reproduction (gallery-contract.ts): where it is, its verdict, or why it
// stopped. lab-events.ts puts them in the one LabEvent union.
import type { SweepValue } from './sweep'
import type { ReproduceReport } from '../gallery/report'

/** Simulation k of n (one per variant, or per value of a swept variant), and how far it is. */
export interface ReproduceProgressEvent {
  type: 'reproduce:progress'
  runId: string
  variant: string
  /** The swept parameter's value of this simulation; null for a variant without a sweep. */
  value: SweepValue | null
  /** This is simulation k (from 1) of n. */
  k: number
  n: number
  /** Share of this simulation's jobs done (scheduler entries × repetitions), 0 … 1. */
  fraction: number
}

export interface ReproduceDoneEvent {
  type: 'reproduce:done'
  runId: string
  report: ReproduceReport
}

export interface ReproduceFailedEvent {
  type: 'reproduce:failed'
  runId: string
  cancelled: boolean
  message: string
}

export type GalleryEvent = ReproduceProgressEvent | ReproduceDoneEvent | ReproduceFailedEvent
