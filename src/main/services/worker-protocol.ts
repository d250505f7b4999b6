import type { ResolvedSpec } from '../../shared/experiment/resolved'
import type { RunResult } from '../../shared/experiment/result'

/** Parent → simulation child. */
export interface WorkerRequest {
  type: 'run'
  spec: ResolvedSpec
  schedIndex: number
  repetition: number
}

/** Simulation child → parent. */
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'progress'; fraction: number; simSeconds: number }
  | { type: 'done'; result: RunResult }
  | { type: 'failed'; message: string }
