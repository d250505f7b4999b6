import type { ResolvedSpec } from '../../../shared/experiment/resolved'
import type { ProcessResult } from '../../../shared/experiment/result'
import type { FioDiskUtil } from '../../../shared/formats/fio-json'
import type { Journal } from './journal'
import type { FioTarget } from './fio-job'
import type { TraceOwner } from '../../../shared/experiment/trace-owners'

/** How a run can be stopped from outside: set `cancelled`, then call every hook. */
export interface CancelState {
  cancelled: boolean
  hooks: Set<() => Promise<void>>
}

/** A run was cancelled (SIGINT/SIGTERM, or the app's cancel button). */
export class CancelledError extends Error {
  constructor() {
    super('cancelled')
    this.name = 'CancelledError'
  }
}

export interface ExecuteContext {
  journal: Journal
  cancel: CancelState
  /** fraction 0…1 (null when unknown), ETA in s, the engine's own progress line. */
  progress(fraction: number | null, etaSeconds: number | null, line: string): void
}

/** One engine's plan for one run: what it will execute, and how to run it and read the results. */
export interface EnginePlan {
  engine: 'fio' | 'dd' | 'bonnie++'
  /** The job file (fio) or the command lines (dd, bonnie++), as shown by --show-job. */
  jobFile: string
  /** The main command, argv. */
  command: string[]
  readOnly: boolean
  notes: string[]
  /**
   * Where each process does its I/O on the device, to tell its pid in a blktrace (trace-owners.ts);
   * and the command its pids carry there. Without them a trace names pids by their command.
   */
  traceOwners?: TraceOwner[]
  traceComm?: string
  execute(ctx: ExecuteContext): Promise<EngineOutput>
}

export interface EngineOutput {
  processes: ProcessResult[]
  diskUtil?: FioDiskUtil[]
  /** Wall clock (Unix ms) when the workload ended, if the engine says (fio's report timestamp). */
  endWallMs?: number
}

export interface PlanOptions {
  repetition: number
  /** Directory for job files and reports (deleted by the caller). */
  workDir: string
  maxSeconds?: number
  rampSeconds?: number
  extraArgs?: readonly string[]
}

/** An engine: its version, and a plan for a spec on a target. */
export interface RealEngine {
  readonly name: EnginePlan['engine']
  version(): Promise<string>
  plan(spec: ResolvedSpec, target: FioTarget, o: PlanOptions): EnginePlan
}
