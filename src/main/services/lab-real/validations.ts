// Validating the simulation against the kernel from the app (`iosched-lab validate`): the matrix
// runs through the backend (root), on a fingerprint made now or a fingerprinted user preset; its
// stages, fio's progress, the report and failures are validate events. The same refusals as a
// fingerprint: the validation writes to the target.
import { randomUUID } from 'node:crypto'
import type { LabListener } from '../../../shared/api/lab-events'
import type { ValidationInput } from '../../../shared/api/real-contract'
import type { ValidateProgressEvent } from '../../../shared/api/real-events'
import type { RealBackend } from '../real/real-backend'
import { fingerprintPresets } from './fingerprint-presets'
import { targetRequest } from './preview'
import { admitWritingSweep } from './admit-sweep'
import type { PresetDocument } from '../real/fingerprint'
import { saveFingerprintPreset } from './save-preset'

export class Validations {
  private readonly active = new Set<string>()

  constructor(
    private readonly backend: RealBackend,
    private readonly presetDir: () => string,
    private readonly emit: LabListener,
    private readonly begun: (runId: string) => void,
    private readonly blockers: () => Promise<string[]>,
  ) {}

  async start(input: ValidationInput): Promise<{ runId: string } | { problems: string[] }> {
    let presetFile: string | undefined
    if (input.presetName !== undefined) {
      const { presets } = fingerprintPresets(this.presetDir())
      presetFile = presets.find((p) => p.name === input.presetName)?.path
      if (!presetFile)
        return {
          problems: [
            `no fingerprinted preset named "${input.presetName}" in ${this.presetDir()}` +
              (presets.length
                ? `; there are ${presets.map((p) => p.name).join(', ')}`
                : '; fingerprint the device first'),
          ],
        }
    }
    // the matrix writes, as the fingerprint's sweep does: the same refusals
    const problems = await admitWritingSweep(input.target, this.backend, this.blockers)
    if (problems.length > 0) return { problems }
    const runId = randomUUID()
    this.active.add(runId)
    this.begun(runId)
    void this.execute(runId, input, presetFile)
    return { runId }
  }

  async cancel(runId: string): Promise<boolean> {
    if (!this.active.has(runId)) return false
    return this.backend.cancel(runId)
  }

  private async execute(
    runId: string,
    input: ValidationInput,
    presetFile: string | undefined,
  ): Promise<void> {
    // what the progress event says: the stage, and the real run going now with fio's progress
    let at: Omit<ValidateProgressEvent, 'type' | 'runId'> = {
      stage: '',
      k: 0,
      n: 0,
      run: null,
      fraction: null,
      etaSeconds: null,
    }
    const progress = (change: Partial<typeof at>): void => {
      at = { ...at, ...change }
      this.emit({ type: 'validate:progress', runId, ...at })
    }
    // the fingerprint made first is kept as a user preset, as the Devices view's fingerprint is —
    // saved as soon as it is fitted, so a matrix that fails or is cancelled later does not lose it
    let saving: Promise<string | null> | null = null
    let span = false
    const save = (doc: PresetDocument): Promise<string | null> =>
      saveFingerprintPreset(this.presetDir(), doc, (message) =>
        this.emit({ type: 'run:notice', runId, message }),
      ).then(
        (path) => {
          this.emit({
            type: 'run:notice',
            runId,
            message: `${doc.bracketed ? "the fingerprint fitted over the validation's span" : 'the fingerprint'} is saved as device preset ${doc.name} (${path})`,
          })
          return path
        },
        (e: Error) => {
          // the report still comes; only the preset is missing, said
          this.emit({
            type: 'run:notice',
            runId,
            message: `the fingerprint could not be saved as a preset: ${e.message}`,
          })
          return null
        },
      )
    try {
      const report = await this.backend.validate(
        runId,
        {
          target: targetRequest(input.target),
          presetFile,
          quick: input.quick,
          seconds: input.seconds,
          only: input.only,
        },
        {
          fingerprinted: (doc) => {
            // fitted again over the span: saved in place of the start's, once that is written
            const before = saving
            span = doc.bracketed !== undefined
            saving = before === null ? save(doc) : before.then(() => save(doc))
          },
          stage: (stage, k, n) => progress({ stage, k, n, run: null, fraction: null, etaSeconds: null }),
          runStarted: (label, repetition) =>
            progress({ run: { label, repetition }, fraction: null, etaSeconds: null }),
          progress: (_l, _r, fraction, etaSeconds) => progress({ fraction, etaSeconds }),
          notice: (message) => this.emit({ type: 'run:notice', runId, message }),
          failed: (label, rep, message) =>
            this.emit({ type: 'run:notice', runId, message: `${label} #${rep + 1} failed: ${message}` }),
        },
      )
      const saved = saving !== null ? await (saving as Promise<string | null>) : null
      if (saved !== null)
        report.preset.from = `${span ? "fingerprint fitted over the validation's span" : 'fingerprint'}, saved to ${saved}`
      this.emit({ type: 'validate:done', runId, report })
    } catch (e) {
      if (saving !== null) await saving
      const cancelled = (e as Error).name === 'CancelledError'
      this.emit({
        type: 'validate:failed',
        runId,
        cancelled,
        message: cancelled ? 'cancelled' : (e as Error).message,
      })
    } finally {
      this.active.delete(runId)
    }
  }
}
