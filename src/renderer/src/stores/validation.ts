// Validating the simulation against the kernel on the chosen target (`iosched-lab validate`):
// the options (quick matrix or the whole, which workloads, a fingerprint to reuse), start, its
// stage and fio's progress, cancel, and the report. A dropped event channel is caught up through
// runStatus, as a run's is.
import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type {
  FingerprintPreset,
  RealDeviceTargetInput,
  ValidateReport,
} from '../../../shared/api/real-contract'
import type { ValidateProgressEvent } from '../../../shared/api/real-events'
import { VALIDATE_MATRIX } from '../../../shared/validate/matrix'
import { errorText, useLab } from '../api'
import { longJob } from './long-job'
import type { JobStatus } from './long-job'

export type ValidationStatus = JobStatus

/** The workloads of the quick matrix, or of the whole one. */
export const matrixOf = (quick: boolean): string[] =>
  VALIDATE_MATRIX.filter((w) => !quick || w.quick).map((w) => w.id)

export const useValidation = defineStore('validation', () => {
  const progress = shallowRef<ValidateProgressEvent | null>(null)
  const report = shallowRef<ValidateReport | null>(null)
  const notices = ref<string[]>([])
  const job = longJob({
    what: 'validation',
    cancelled: 'Cancelled: the device was restored.',
    event(e) {
      if (e.type === 'validate:progress') progress.value = e
      else if (e.type === 'run:notice') {
        if (!notices.value.includes(e.message)) notices.value.push(e.message)
      } else if (e.type === 'validate:done') {
        report.value = e.report
        job.status.value = 'done'
      } else if (e.type === 'validate:failed') job.ended(e)
    },
  })
  const { status, runId, message, busy, onEvent, recover, cancel } = job
  const quick = ref(true)
  /** The workloads to run, by id: the quick matrix until changed. */
  const workloads = ref<string[]>(matrixOf(true))
  /** A fingerprinted preset to reuse; '' fingerprints the target first. */
  const presetName = ref('')
  /** Seconds per run; null: the lab's default (4, quick 2). */
  const seconds = ref<number | null>(null)
  const presets = shallowRef<FingerprintPreset[]>([])
  const presetProblems = ref<string[]>([])

  function setQuick(q: boolean): void {
    quick.value = q
    workloads.value = matrixOf(q)
  }

  async function loadPresets(): Promise<void> {
    try {
      const r = await useLab().fingerprintPresets()
      presets.value = r.presets
      presetProblems.value = r.problems
      if (presetName.value && !r.presets.some((p) => p.name === presetName.value)) presetName.value = ''
    } catch (e) {
      presets.value = []
      presetProblems.value = [errorText(e)]
    }
  }

  async function start(target: RealDeviceTargetInput): Promise<void> {
    if (busy.value) return
    report.value = null
    progress.value = null
    notices.value = []
    const all = matrixOf(quick.value)
    const whole = workloads.value.length === all.length && all.every((w) => workloads.value.includes(w))
    await job.start(() =>
      useLab().startValidation({
        target,
        quick: quick.value,
        ...(presetName.value ? { presetName: presetName.value } : {}),
        ...(seconds.value ? { seconds: seconds.value } : {}),
        // the matrix's order, whatever the order of the ticks
        ...(whole
          ? {}
          : { only: VALIDATE_MATRIX.map((w) => w.id).filter((w) => workloads.value.includes(w)) }),
      }),
    )
  }

  return {
    status,
    runId,
    progress,
    report,
    message,
    notices,
    quick,
    workloads,
    presetName,
    seconds,
    presets,
    presetProblems,
    busy,
    setQuick,
    loadPresets,
    start,
    cancel,
    onEvent,
    recover,
  }
})
