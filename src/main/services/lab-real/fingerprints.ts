// Fingerprinting from the app: the sweep runs through the backend (root), the fitted preset is
// saved by this process into the user's preset folder and registered, so the catalogue lists it
// at once and a spec can name it. Progress, the outcome and failures are fingerprint events.
import { randomUUID } from 'node:crypto'
import type { LabListener } from '../../../shared/api/lab-events'
import type { FingerprintInput, FingerprintOutcome } from '../../../shared/api/real-contract'
import type { PresetDocument } from '../real/fingerprint'
import type { SweepPoint } from '../real/fingerprint-fit'
import type { RealBackend } from '../real/real-backend'
import { saveFingerprintPreset } from './save-preset'
import { targetRequest } from './preview'
import { admitWritingSweep } from './admit-sweep'

const pick = (p: SweepPoint) => ({ iops: p.iops, MBps: p.MBps, p50Ms: p.p50Ms, p99Ms: p.p99Ms })

export function outcomeOf(doc: PresetDocument, path: string): FingerprintOutcome {
  return {
    name: doc.name,
    path,
    model: doc.model,
    basePreset: doc.basePreset,
    description: doc.description,
    target: doc.measured.target.description,
    values: doc.values,
    sources: doc.sources,
    points: [
      ...doc.measured.points.map((m) => {
        const s = doc.simulated.points.find((x) => x.name === m.name)
        return {
          name: m.name,
          measured: pick(m),
          simulated: s ? pick(s) : null,
          fit: doc.fit[m.name] ?? null,
        }
      }),
      // the QD32 reads under the other schedulers (virtual devices)
      ...(doc.schedulerPoints ?? []).map((x) => {
        const name = `qd32-randread@${x.scheduler}`
        return { name, measured: pick(x.measured), simulated: pick(x.simulated), fit: doc.fit[name] ?? null }
      }),
    ],
    specDevice: doc.specDevice,
  }
}

export class Fingerprints {
  private readonly active = new Set<string>()

  constructor(
    private readonly backend: RealBackend,
    private readonly presetDir: () => string,
    private readonly emit: LabListener,
    private readonly begun: (runId: string) => void,
    private readonly blockers: () => Promise<string[]>,
  ) {}

  async start(input: FingerprintInput): Promise<{ runId: string } | { problems: string[] }> {
    const problems = await admitWritingSweep(input.target, this.backend, this.blockers)
    if (problems.length > 0) return { problems }
    const runId = randomUUID()
    this.active.add(runId)
    this.begun(runId)
    void this.execute(runId, input)
    return { runId }
  }

  async cancel(runId: string): Promise<boolean> {
    if (!this.active.has(runId)) return false
    return this.backend.cancel(runId)
  }

  private async execute(runId: string, input: FingerprintInput): Promise<void> {
    let cancelled = false
    try {
      const doc = await this.backend.fingerprint(
        runId,
        { target: targetRequest(input.target), seconds: input.seconds ?? 3, name: input.name },
        {
          notice: (message) => this.emit({ type: 'run:notice', runId, message }),
          progress: (_l, _r, fraction, etaSeconds) =>
            this.emit({ type: 'fingerprint:progress', runId, fraction, etaSeconds }),
          failed: (_l, _r, message) =>
            this.emit({ type: 'run:notice', runId, message: `the sweep failed: ${message}` }),
        },
      )
      const path = await saveFingerprintPreset(this.presetDir(), doc, (message) =>
        this.emit({ type: 'run:notice', runId, message }),
      )
      this.emit({ type: 'fingerprint:done', runId, outcome: outcomeOf(doc, path) })
    } catch (e) {
      cancelled = (e as Error).name === 'CancelledError'
      this.emit({
        type: 'fingerprint:failed',
        runId,
        cancelled,
        message: cancelled ? 'cancelled' : (e as Error).message,
      })
    } finally {
      this.active.delete(runId)
    }
  }
}
