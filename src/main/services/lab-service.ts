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
import { galleryExamples } from './gallery-entries'
import { LabRuns } from './lab-runs'
import { niceForkSpawner } from './nice-spawner'
import { RunPool } from './run-pool'
import type { Spawner } from './run-pool'
import { SessionStore } from './sessions'

export interface LabServiceOptions {
  /** Example spec files shown after the gallery. */
  examplesDir: string
  /** The folder holding gallery/ (default: the repository, or the app's own files). */
  galleryRoot?: string
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

  /** The start page: the gallery's experiments first, then the example spec files. */
  async examples(): Promise<Example[]> {
    const gallery = galleryExamples(this.opts.galleryRoot)
    // an example file that a gallery entry already shows (its spec file) is not listed twice
    const shown = new Set(gallery.map((g) => (g.spec as { name?: string })?.name).filter(Boolean))
    const files = (await loadExamples(this.opts.examplesDir)).filter(
      (e) => !shown.has((e.spec as { name?: string })?.name),
    )
    return [...gallery, ...files]
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
