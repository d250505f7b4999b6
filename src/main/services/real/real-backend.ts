import type { ResolvedSpec } from '../../../shared/experiment/resolved'
import type { Diagnosis, DoctorCheck } from './doctor'
import { diagnose, prerequisiteChecks } from './doctor'
import type { RealEngine } from './engine-plan'
import { engineByName } from './engines'
import type { PresetDocument } from './fingerprint'
import { fingerprintDevice } from './fingerprint'
import type { RealExperimentEvents } from './real-experiment'
import { RealExperimentRunner } from './real-experiment'
import type { RealExperimentResult } from './real-result'
import { labStateDir } from './state-dir'
import { RunPool } from '../run-pool'
import type { TargetRequest } from './target'
import type { SimulationJob, ValidateEvents } from './validate'
import type { RunResult } from '../../../shared/experiment/result'
import { validateDevice } from './validate'
import type { ValidateReport } from '../../../shared/validate/report'

/** A real run's options as plain data (they cross a process boundary to the privileged helper). */
export interface RealRunOptions {
  target?: TargetRequest
  engine?: RealEngine['name']
  maxSeconds?: number
  rampSeconds?: number
  fioArgs?: string[]
  sampleMs?: number
  dropCaches?: boolean
  /** Trace each run with blktrace when it is installed (default true). */
  trace?: boolean
}

export interface FingerprintRunOptions {
  target?: TargetRequest
  seconds?: number
  regionBytes?: number
  name?: string
}

/** A validation's options as plain data (validate.ts's, without the runner and the state folder). */
export interface ValidationRunOptions {
  target?: TargetRequest
  /** A fingerprint preset file to reuse (default: fingerprint the device first). */
  presetFile?: string
  quick?: boolean
  seconds?: number
  only?: string[]
}

/**
 * What needs root in the real-device services, behind one face: in this process when it is root
 * (or to be refused with the reason when it is not), or in a privileged helper process that the
 * desktop app starts once per session (helper-client.ts). `key` names a run, so it can be cancelled.
 */
export interface RealBackend {
  /** `helper`: the calls go to a privileged helper process. */
  readonly kind: 'in-process' | 'helper'
  /** Whether the helper is running (always true in process). */
  readonly running: boolean
  /** Make sure the calls can be served (the helper asks for root here); throws with the reason. */
  start(): Promise<void>
  checks(): Promise<DoctorCheck[]>
  doctor(): Promise<Diagnosis & { stateDir: string }>
  run(
    key: string,
    spec: ResolvedSpec,
    o: RealRunOptions,
    ev: RealExperimentEvents,
  ): Promise<RealExperimentResult>
  fingerprint(key: string, o: FingerprintRunOptions, ev: RealExperimentEvents): Promise<PresetDocument>
  validate(key: string, o: ValidationRunOptions, ev: ValidateEvents): Promise<ValidateReport>
  /** Stop a run: resolves once its device is restored and released; false when no such run. */
  cancel(key: string): Promise<boolean>
  /** Cancel everything and let go (the helper exits). */
  close(): Promise<void>
}

/** The services themselves, in this process (root: the CLI under sudo, `sudo iosched-lab serve`, the helper). */
export class LocalRealBackend implements RealBackend {
  readonly kind = 'in-process'
  readonly running = true
  private readonly runners = new Map<string, RealExperimentRunner>()
  /** Simulations of a validation run in child processes: this process keeps answering meanwhile. */
  private pool: RunPool | null = null

  constructor(readonly stateDir = labStateDir()) {}

  async start(): Promise<void> {}

  checks(): Promise<DoctorCheck[]> {
    return prerequisiteChecks()
  }

  async doctor(): Promise<Diagnosis & { stateDir: string }> {
    return { ...(await diagnose(this.stateDir)), stateDir: this.stateDir }
  }

  run(
    key: string,
    spec: ResolvedSpec,
    o: RealRunOptions,
    ev: RealExperimentEvents,
  ): Promise<RealExperimentResult> {
    const engine = o.engine === undefined ? undefined : engineByName(o.engine)
    if (o.engine !== undefined && !engine) return Promise.reject(new Error(`unknown engine "${o.engine}"`))
    return this.track(key, (runner) =>
      runner.run(spec, { ...o, engine, fioArgs: o.fioArgs ?? [], stateDir: this.stateDir }, ev),
    )
  }

  fingerprint(key: string, o: FingerprintRunOptions, ev: RealExperimentEvents): Promise<PresetDocument> {
    return this.track(key, (runner) => fingerprintDevice({ ...o, stateDir: this.stateDir, runner }, ev))
  }

  validate(key: string, o: ValidationRunOptions, ev: ValidateEvents): Promise<ValidateReport> {
    const simulateRuns = async (spec: ResolvedSpec, jobs: readonly SimulationJob[]): Promise<RunResult[]> => {
      this.pool ??= new RunPool()
      const failures: string[] = []
      const results = await this.pool.runAll(spec, [...jobs], {
        failed: (job, m) =>
          failures.push(`${spec.schedulers[job.schedIndex].label} #${job.repetition + 1}: ${m}`),
      })
      if (failures.length > 0 || results.some((r) => r === undefined))
        throw new Error(`a simulated run of ${spec.name} failed: ${failures.join('; ') || 'stopped'}`)
      return results as RunResult[]
    }
    return this.track(key, (runner) =>
      validateDevice({ ...o, stateDir: this.stateDir, runner, simulateRuns }, ev),
    )
  }

  async cancel(key: string): Promise<boolean> {
    const r = this.runners.get(key)
    if (!r) return false
    await r.cancel()
    return true
  }

  async close(): Promise<void> {
    await Promise.all([...this.runners.keys()].map((k) => this.cancel(k)))
    this.pool?.dispose()
    this.pool = null
  }

  get active(): number {
    return this.runners.size
  }

  private async track<T>(key: string, f: (runner: RealExperimentRunner) => Promise<T>): Promise<T> {
    if (this.runners.has(key)) throw new Error(`a run named ${key} is going already`)
    const runner = new RealExperimentRunner()
    this.runners.set(key, runner)
    try {
      return await f(runner)
    } finally {
      this.runners.delete(key)
    }
  }
}
