// The real-device half of LabApi (shared/api/real-contract.ts) on the services: devices and
// prerequisites in this process (no root needed to look), everything that changes a device through
// the backend (this process as root, or the app's privileged helper), runs, fingerprints and
// validations reported as events. LabService delegates to this class.
import type { RunStarted } from '../../../shared/api/contract'
import type { LabListener } from '../../../shared/api/lab-events'
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
} from '../../../shared/api/real-contract'
import { listBlockDevices } from '../real/block-devices'
import { isRoot } from '../real/prerequisites'
import type { RealBackend } from '../real/real-backend'
import { LocalRealBackend } from '../real/real-backend'
import { userPresetDir } from '../user-presets'
import { realAccess } from './access'
import { fingerprintPresets } from './fingerprint-presets'
import { Fingerprints } from './fingerprints'
import { previewReal } from './preview'
import type { SimulateJobs } from './real-runs'
import { RealRuns } from './real-runs'
import { Validations } from './validations'

export interface RealLabOptions {
  /** Default: the services in this process. The app passes the privileged helper when not root. */
  backend?: RealBackend
  /** How to get root on this host, said when real runs are refused for want of it. */
  rootHint?: string
  /** What the host repaired at start (repairAtStart), if it did. */
  startupRepair?: Promise<StartupRepair>
  /** The user's preset folder (default: under the state directory). */
  presetDir?: () => string
}

export const SERVE_ROOT_HINT =
  'stop this lab and start it again as root: sudo npx iosched-lab serve (the desktop app: sudo npm start).'

export class RealLab {
  readonly backend: RealBackend
  private readonly runs: RealRuns
  private readonly fingerprints: Fingerprints
  private readonly validations: Validations
  private readonly presetDir: () => string
  private readonly rootHint: string

  constructor(
    private readonly o: RealLabOptions,
    simulate: SimulateJobs,
    emit: LabListener,
    begun: (runId: string, started: RunStarted | null) => void,
  ) {
    this.backend = o.backend ?? new LocalRealBackend()
    this.rootHint = o.rootHint ?? SERVE_ROOT_HINT
    const blockers = async (): Promise<string[]> => (await this.access()).problems
    this.runs = new RealRuns(
      this.backend,
      simulate,
      emit,
      (s) => begun(s.runId, s),
      blockers,
      () => this.presetDir(),
    )
    this.presetDir = o.presetDir ?? userPresetDir
    this.fingerprints = new Fingerprints(
      this.backend,
      this.presetDir,
      emit,
      (id) => begun(id, null),
      blockers,
    )
    this.validations = new Validations(this.backend, this.presetDir, emit, (id) => begun(id, null), blockers)
  }

  access(): Promise<RealAccess> {
    const pid = (this.backend as { helper?: { pid: number } | null }).helper?.pid
    return realAccess(this.backend, this.rootHint, pid)
  }

  async devices(): Promise<DevicesReport> {
    return { root: isRoot(), devices: await listBlockDevices() }
  }

  preview(input: RealRunInput): Promise<RealPreview> {
    return previewReal(input)
  }

  startRun(input: RealRunInput): Promise<RealRunStart> {
    return this.runs.start(input)
  }

  startFingerprint(input: FingerprintInput): Promise<{ runId: string } | { problems: string[] }> {
    return this.fingerprints.start(input)
  }

  async fingerprintPresets(): Promise<FingerprintPresets> {
    return fingerprintPresets(this.presetDir())
  }

  startValidation(input: ValidationInput): Promise<{ runId: string } | { problems: string[] }> {
    return this.validations.start(input)
  }

  async doctor(): Promise<DoctorReport> {
    const d = await this.backend.doctor()
    const root = d.checks.find((c) => c.what === 'root')?.ok ?? false
    return { ...d, root, healthy: d.problems.length === 0 && d.checks.every((c) => c.ok) }
  }

  async startupRepairs(): Promise<StartupRepair> {
    return (await this.o.startupRepair) ?? { root: isRoot(), actions: [], problems: [], pending: [] }
  }

  /** Cancel a real run, a fingerprint or a validation; false when none has this id. */
  async cancel(runId: string): Promise<boolean> {
    return (
      (await this.runs.cancel(runId)) ||
      (await this.fingerprints.cancel(runId)) ||
      (await this.validations.cancel(runId))
    )
  }

  /** Cancel everything (devices restored), then let the backend go. */
  async dispose(): Promise<void> {
    await this.runs.cancelAll()
    await this.backend.close()
  }
}
