// LabApi implemented on the services: the catalogue, spec validation, runs in the child-process
// pool, the gallery and sessions. No electron import: the app (over IPC), the browser host (over
// HTTP and a WebSocket) and tests all use this very class.
import { availableParallelism } from 'node:os'
import { catalogue } from '../../shared/catalogue'
import type {
  Example,
  LabApi,
  LibraryInfo,
  RunStarted,
  SessionDocument,
  SessionInfo,
  SessionSaveInput,
  SpecCheck,
  StartRunInput,
} from '../../shared/api/contract'
import type { LabListener } from '../../shared/api/lab-events'
import { validateSpec } from '../../shared/experiment/validate'
import type { ParamIssue } from '../../shared/util/params'
import { loadExamples } from './examples'
import { LabRuns } from './lab-runs'
import { niceForkSpawner } from './nice-spawner'
import { RunPool } from './run-pool'
import type { Spawner } from './run-pool'
import { SessionStore } from './sessions'

export interface LabServiceOptions {
  /** The gallery: a folder of spec files. */
  examplesDir: string
  /** Where sessions are saved by default. */
  libraryDir: string
  appVersion?: string
  /** Simulations at once (default: the number of cores). */
  parallel?: number
  /** How a simulation child is started (default: Node's fork at nice 10; the app passes utilityProcess). */
  spawner?: Spawner
  /** The simulation child's entry (default: next to the run pool, source or built). */
  workerPath?: string
}

export class LabService implements LabApi {
  private readonly listeners = new Set<LabListener>()
  private readonly runs: LabRuns
  private readonly sessions: SessionStore

  constructor(private readonly opts: LabServiceOptions) {
    const parallel = Math.max(1, opts.parallel ?? availableParallelism())
    const newPool = (): RunPool => new RunPool(parallel, opts.spawner ?? niceForkSpawner, opts.workerPath)
    this.runs = new LabRuns(newPool, parallel, (e) => {
      for (const l of this.listeners) l(e)
    })
    this.sessions = new SessionStore(opts.libraryDir, opts.appVersion)
  }

  /** Listen to every event (progress, results, failures of every run); returns the unsubscribe. */
  on(listener: LabListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Cancel every run (on quit): their children are killed. */
  dispose(): void {
    this.runs.cancelAll()
    this.listeners.clear()
  }

  async catalogue(): Promise<ReturnType<typeof catalogue>> {
    return catalogue()
  }

  examples(): Promise<Example[]> {
    return loadExamples(this.opts.examplesDir)
  }

  async validateSpec({ spec }: { spec: unknown }): Promise<SpecCheck> {
    return validateSpec(spec)
  }

  async startRun(input: StartRunInput): Promise<RunStarted | { issues: ParamIssue[] }> {
    return this.runs.start(input)
  }

  async cancelRun({ runId }: { runId: string }): Promise<boolean> {
    return this.runs.cancel(runId)
  }

  listSessions(): Promise<SessionInfo[]> {
    return this.sessions.list()
  }

  saveSession(input: SessionSaveInput): Promise<SessionInfo> {
    return this.sessions.save(input)
  }

  openSession({ path }: { path: string }): Promise<SessionDocument> {
    return this.sessions.open(path)
  }

  async library(): Promise<LibraryInfo> {
    return { folder: this.sessions.folder }
  }
}
