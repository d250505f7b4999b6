// The LabApi contract: every method the lab's front end may call, declared once. Main (over IPC),
// the preload (window.lab), the browser host (HTTP) and the renderer's client all use this file,
// so a method added here and not served anywhere fails to compile.
import type { Catalogue } from '../catalogue'
import type { ExperimentResult } from '../experiment/compare'
import type { ResolvedSpec } from '../experiment/resolved'
import type { ParamIssue } from '../util/params'
import type { SweepSpec, SweepValue } from './sweep'
import type { RealLabApi } from './real-contract'
import type { LibraryLabApi } from './library-contract'
import type { GalleryLabApi } from './gallery-contract'
import type { RunResult } from '../experiment/result'
import type { RunKind, SessionDocument } from '../session/types'

export type { SweepSpec, SweepValue }
export type { SessionDocument }

/** A spec checked by the shared validation: the resolved spec, or every problem with its path. */
export type SpecCheck = { ok: true; spec: ResolvedSpec } | { ok: false; issues: ParamIssue[] }

/** One experiment of the gallery (`examples/*.json`). */
export interface Example {
  /** File name without `.json`, e.g. `streaming-read-under-write-2003`. */
  id: string
  name: string
  description: string
  /** The spec document as written (not resolved), ready to edit. */
  spec: unknown
  /** A gallery entry's variant: the entry (the start page shows one card per entry, its variants inside). */
  entry?: ExampleEntry
  /** A gallery entry's variant: the variant's own title. */
  variant?: string
}

/** The gallery entry an example belongs to, as its start-page card shows it. */
export interface ExampleEntry {
  name: string
  title: string
  source: string
  /** The first paragraph of its page, as plain text. */
  summary: string
  /** Published figures and claims it is judged on. */
  figures: number
  claims: number
}

/** One simulation of a run: a scheduler entry × a repetition (× a sweep point). */
export interface RunJobRef {
  /** Index into the sweep's values; 0 without a sweep. */
  point: number
  schedIndex: number
  repetition: number
  label: string
  /** A real run's job (fio on a device); absent for a simulation. */
  source?: 'real'
  /** A simulation's simulated-time bound, s (its spec's stop.maxSeconds): progress is shown against it. */
  maxSimSeconds?: number
  /** A real run's time limit, s (the spec's stop.maxSeconds or the run's override): the overall ETA starts from it. */
  maxSeconds?: number
}

/** What `startRun` answers: the run's id and every job it will run, in order. */
export interface RunStarted {
  runId: string
  jobs: RunJobRef[]
  /** Simulation processes at once. */
  parallel: number
}

export interface StartRunInput {
  spec: unknown
  /** Vary one parameter over values: one experiment per value. */
  sweep?: SweepSpec
  /** Run even beyond the work limits (experiment/work-limits.ts); default false: refused with the reasons. */
  allowLarge?: boolean
}

export interface SessionSaveInput {
  /** A name for the library; also the file name when `path` is not given. */
  name: string
  /** The spec document as edited. */
  spec: unknown
  /** Results of the last run, if any. */
  result?: ExperimentResult | null
  /** Sweep results, if any. */
  sweep?: SweepResult | null
  /** Save here (any path ending in .json, or .json.gz to compress) instead of the library folder. */
  path?: string
  /**
   * When a file is there already (in the library: under either name). Absent or false: refuse
   * (ApiError `conflict`) — a save never replaces a file it was not told to. `true`: replace it.
   * `{ revision }`: replace it only if it is still that revision of the session (the one opened or
   * last saved here); refuse if another writer changed it since.
   */
  replace?: boolean | { revision: number }
  /** Free text kept with the session. */
  notes?: string
  tags?: string[]
  /** Runs beside the result: imported from tools' outputs, or real runs. */
  runs?: RunResult[]
  /** Details of the real devices of the runs, kept in the session's environment. */
  devices?: Record<string, unknown>[]
}

/** A session file in the library (or opened from anywhere). */
export interface SessionInfo {
  path: string
  name: string
  savedAt: string
  /** Scheduler labels of the spec. */
  schedulers: string[]
  hasResult: boolean
  bytes: number
  /** Bumped by every write of the file (docs/session-json.md). */
  revision?: number
  /** Tags of the session (v2; none for older files). */
  tags?: string[]
  /** Runs it holds, and where they came from. */
  runs?: number
  kinds?: RunKind[]
  /** Written gzip-compressed (`.json.gz`). */
  compressed?: boolean
}

/** The results of a sweep: one experiment per value of the varied parameter. */
export interface SweepResult {
  sweep: SweepSpec
  points: { value: SweepValue; result: ExperimentResult }[]
}

/** The session document's version 1 (docs/session-json.md): read and migrated to version 2. */
export interface SessionDocumentV1 {
  schema: 'iosched-lab/session@1'
  name: string
  savedAt: string
  /** The app version that wrote it. */
  app: string
  spec: unknown
  result: ExperimentResult | null
  sweep: SweepResult | null
}

/** Where sessions are kept by default. */
export interface LibraryInfo {
  folder: string
}

/**
 * The lab's methods. Each takes at most one argument (a plain object) and answers with plain
 * data; inputs are validated with `LAB_INPUTS` (schemas.ts) wherever they cross a process boundary.
 */
export interface LabApi extends RealLabApi, LibraryLabApi, GalleryLabApi {
  /** Everything the lab models: schedulers, devices, hosts, workloads, with every parameter. */
  catalogue(): Promise<Catalogue>
  /** The gallery of ready experiments. */
  examples(): Promise<Example[]>
  /** Check a spec document with the shared schema; never throws for a bad spec. */
  validateSpec(input: { spec: unknown }): Promise<SpecCheck>
  /** Start running an experiment (or a sweep) in child processes; events report on it. */
  /** `problems`: beyond the work limits (each says which and why), unless `allowLarge`. */
  startRun(input: StartRunInput): Promise<RunStarted | { issues: ParamIssue[] } | { problems: string[] }>
  /** Kill a run's simulations; answers false when no such run is going. */
  cancelRun(input: { runId: string }): Promise<boolean>
  /** The library folder's sessions, newest first. */
  listSessions(): Promise<SessionInfo[]>
  saveSession(input: SessionSaveInput): Promise<SessionInfo>
  openSession(input: { path: string }): Promise<SessionDocument>
  library(): Promise<LibraryInfo>
}

export type LabMethod = keyof LabApi
export type LabInput<M extends LabMethod> = Parameters<LabApi[M]>[0]
export type LabOutput<M extends LabMethod> = Awaited<ReturnType<LabApi[M]>>
