// LabApi implemented on the services: the catalogue, spec validation, runs in the child-process
// pool, the gallery (its experiments and reproducing an entry) and sessions. No electron import: the app (over IPC), the browser host (over
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
import type {
  DevicesReport,
  DoctorReport,
  FingerprintInput,
  FingerprintPresets,
  RealAccess,
  RealPreview,
  RealRunInput,
  RealRunStart,
  StartupRepair,
  ValidationInput,
} from '../../shared/api/real-contract'
import type { RunStatusReport } from '../../shared/api/run-status'
import { validateSpec } from '../../shared/experiment/validate'
import type { ParamIssue } from '../../shared/util/params'
import { loadExamples } from './examples'
import { galleryExamples } from './gallery-entries'
import { Reproductions } from './gallery-reproductions'
import type { ReproduceInput, ReproduceStarted } from '../../shared/api/gallery-contract'
import { LabRuns } from './lab-runs'
import { niceForkSpawner } from './nice-spawner'
import { RunPool } from './run-pool'
import type { Spawner } from './run-pool'
import { SessionStore } from './sessions'
import { LibraryService } from './library/library-service'
import type * as Lib from '../../shared/api/library-contract'
import { RealLab } from './lab-real/real-lab'
import type { RealLabOptions } from './lab-real/real-lab'
import type { SimulateJobs } from './lab-real/real-runs'
import { RunLedger } from './run-ledger'
import { warmUpSpec } from './warm-up'

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
  /** Real devices: how root is reached, what was repaired at start (see lab-real/real-lab.ts). */
  real?: RealLabOptions
}

export class LabService implements LabApi {
  private readonly listeners = new Set<LabListener>()
  private readonly runs: LabRuns
  private readonly sessions: SessionStore
  private readonly libraryService: LibraryService
  private readonly ledger = new RunLedger()
  private readonly real: RealLab
  private readonly reproductions: Reproductions
  /** The simulation children, kept from job to job and run to run (run-pool.ts). */
  private readonly pool: RunPool
  private readonly parallel: number
  /** The warm-up asked for by `warmUp`, until it starts. */
  private warming: NodeJS.Timeout | null = null

  constructor(private readonly opts: LabServiceOptions) {
    const parallel = Math.max(1, opts.parallel ?? availableParallelism())
    this.parallel = parallel
    this.pool = new RunPool(parallel, opts.spawner ?? niceForkSpawner, opts.workerPath)
    const emit: LabListener = (e) => {
      this.ledger.record(e)
      for (const l of this.listeners) l(e)
    }
    this.runs = new LabRuns(this.pool, parallel, emit)
    const simulate: SimulateJobs = (spec, jobs, ev, signal) => this.pool.runAll(spec, jobs, ev, signal)
    this.real = new RealLab(opts.real ?? {}, simulate, emit, (id, started) => this.ledger.begin(id, started))
    this.reproductions = new Reproductions(
      this.pool,
      emit,
      (id) => this.ledger.begin(id, null),
      opts.galleryRoot,
    )
    this.sessions = new SessionStore(opts.libraryDir, opts.appVersion)
    this.libraryService = new LibraryService(this.sessions, opts.appVersion)
  }

  /** Listen to every event (progress, results, failures of every run); returns the unsubscribe. */
  on(listener: LabListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /**
   * Start the simulation children now, and have each simulate a short built-in experiment
   * (warm-up.ts), so that the first Run meets compiled code instead of paying for it (the app and
   * `serve` call this once they are up). Returns at once: the children start on the next turn of
   * the event loop, at a lower priority, and a job that comes meanwhile goes first. Idle children
   * do not keep the process alive, and `dispose` ends them as any other.
   */
  warmUp(): void {
    if (this.warming) return
    this.warming = setTimeout(() => {
      const spec = warmUpSpec()
      if (spec && this.runs.running === 0 && this.reproductions.running === 0)
        this.pool.warm(this.parallel, spec, null)
    }, 0)
    this.warming.unref()
  }

  /** Cancel every run (on quit): their children are killed. */
  dispose(): void {
    if (this.warming) clearTimeout(this.warming)
    this.runs.cancelAll()
    this.reproductions.cancelAll()
    this.pool.dispose()
    void this.real.dispose()
    this.listeners.clear()
  }

  /** Like dispose, and resolves once every real run has restored its device and the helper is gone. */
  async disposeAndWait(): Promise<void> {
    if (this.warming) clearTimeout(this.warming)
    this.runs.cancelAll()
    this.reproductions.cancelAll()
    this.pool.dispose()
    await this.real.dispose()
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
    const v = validateSpec(spec)
    // someone is about to run it: have its simulation children ready when Run is pressed
    if (v.ok && this.runs.running === 0 && this.reproductions.running === 0)
      this.pool.warm(v.spec.schedulers.length * v.spec.repetitions, v.spec)
    return v
  }

  async startRun(
    input: StartRunInput,
  ): Promise<RunStarted | { issues: ParamIssue[] } | { problems: string[] }> {
    const r = this.runs.start(input)
    if ('runId' in r) this.ledger.begin(r.runId, r)
    return r
  }

  async cancelRun({ runId }: { runId: string }): Promise<boolean> {
    return this.runs.cancel(runId) || this.reproductions.cancel(runId) || this.real.cancel(runId)
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

  librarySearch(input: Lib.LibraryQuery = {}): Promise<Lib.LibrarySearchResult> {
    return this.libraryService.search(input)
  }

  libraryCompare(input: Lib.LibraryCompareInput): Promise<Lib.LibraryComparison> {
    return this.libraryService.compare(input)
  }

  setSessionMeta(input: Lib.SessionMetaInput): Promise<SessionInfo> {
    return this.libraryService.setMeta(input)
  }

  importFiles(input: Lib.ImportFilesInput): Promise<Lib.ImportFilesResult> {
    return this.libraryService.importFiles(input)
  }

  exportReport(input: Lib.ExportReportInput): Promise<Lib.ExportedReport> {
    return this.libraryService.exportReport(input)
  }

  // Real devices (lab-real/): the same services as the CLI's devices, doctor, run --real, fingerprint,
  // validate.
  realAccess = (): Promise<RealAccess> => this.real.access()
  devices = (): Promise<DevicesReport> => this.real.devices()
  previewRealRun = (input: RealRunInput): Promise<RealPreview> => this.real.preview(input)
  startRealRun = (input: RealRunInput): Promise<RealRunStart> => this.real.startRun(input)
  doctor = (): Promise<DoctorReport> => this.real.doctor()
  startFingerprint = (input: FingerprintInput) => this.real.startFingerprint(input)
  fingerprintPresets = (): Promise<FingerprintPresets> => this.real.fingerprintPresets()
  startValidation = (input: ValidationInput) => this.real.startValidation(input)
  startupRepairs = (): Promise<StartupRepair> => this.real.startupRepairs()

  /** Reproduce a gallery entry in the lab's simulation children; reproduce events report on it. */
  async startReproduce(input: ReproduceInput): Promise<ReproduceStarted | { problems: string[] }> {
    return this.reproductions.start(input)
  }

  /** A run's state and its events so far, for a client that lost them (a dropped WebSocket). */
  async runStatus({ runId }: { runId: string }): Promise<RunStatusReport> {
    return this.ledger.status(runId)
  }
}
