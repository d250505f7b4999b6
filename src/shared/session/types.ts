// The session document, version 2 (docs/session-json.md): the experiment, every run, the
// environment it was saved in, notes and tags, and a small index of summary facts written first,
// so the library can list a session without reading its runs.
import type { ExperimentResult } from '../experiment/compare'
import type { RunKind, RunResult } from '../experiment/result'
import type { SweepResult } from '../api/contract'
import type { SweepValue } from '../api/sweep'
import type { ParamValues } from '../util/params'

export const SESSION_SCHEMA_PREFIX = 'iosched-lab/session@'
export const SESSION_VERSION = 2
export const SESSION_SCHEMA = 'iosched-lab/session@2'

/** Where a run came from: the simulator, a real device run by the lab, or a tool's output file. */
export type { RunKind }

/** The lab and machine that wrote the session (and ran its real runs). */
export interface SessionEnvironment {
  /** Version of the lab. */
  app: string
  /** Node's version (`process.version`). */
  node?: string
  /** From `os`: platform, type, kernel release, architecture. */
  os?: { platform: string; type: string; release: string; arch: string }
  /** Model of the first CPU and the number of logical CPUs. */
  cpu?: { model: string; count: number }
  /** Details of the real devices the runs were measured on (model, size, rotational …), as given. */
  devices?: Record<string, unknown>[]
}

/**
 * A group of runs that compare as one: the repetitions of one scheduler label, from the result,
 * the extra runs (per kind) or one sweep point.
 */
export interface RunSetFacts {
  /** Unique in its session: `result/<label>`, `runs/<kind>/<label>` or `sweep/<point>/<label>`. */
  key: string
  label: string
  scheduler: string
  kind: RunKind
  /** Device preset, or real device name. */
  device: string
  /** Workload types of its processes (`dd`, `random-read` …), or the tool of imported runs (`fio` …). */
  workloads: string[]
  /** Process names (a workload's instances folded into one name). */
  processes: string[]
  repetitions: number
  /**
   * The scheduler's tunables as the runs set them (the first run's; `{}` for imported runs, whose
   * files do not say). Absent in indexes written before it was kept: the library then reads the
   * whole file and computes it.
   */
  tunables?: ParamValues
  /** The tool that wrote imported runs. */
  tool?: string
  /** The sweep point the runs belong to. */
  point?: { path: string; value: SweepValue }
}

/** Summary facts of a session, computed when it is saved: what the library lists and filters on. */
export interface SessionIndex {
  /** Every run: the result's, the sweep's and the extra ones. */
  runs: number
  kinds: RunKind[]
  devices: string[]
  /** Canonical scheduler names. */
  schedulers: string[]
  labels: string[]
  workloads: string[]
  hasResult: boolean
  hasSweep: boolean
  runSets: RunSetFacts[]
}

/** The session document (`iosched-lab/session@2`). */
export interface SessionDocument {
  schema: typeof SESSION_SCHEMA
  name: string
  /** ISO date and time of the save. */
  savedAt: string
  /** The lab version that wrote it. */
  app: string
  /**
   * Bumped by every write of the file (a save, new notes or tags, added runs): which of two files
   * of one name is current, and whether a session changed since it was opened. 0 when absent.
   */
  revision: number
  index: SessionIndex
  notes: string
  tags: string[]
  environment: SessionEnvironment
  /** The spec document as edited (valid or not), or null for a session of imported runs only. */
  spec: unknown
  result: ExperimentResult | null
  sweep: SweepResult | null
  /** Runs beside the result: imported from tools' outputs, or real runs kept with the simulation. */
  runs: RunResult[]
}

/** The fields written before the runs: the library reads only these when it can. */
export type SessionHeader = Pick<
  SessionDocument,
  'schema' | 'name' | 'savedAt' | 'app' | 'revision' | 'index' | 'notes' | 'tags' | 'environment'
>
