// Validating the simulation against the kernel on the chosen target (`iosched-lab validate`):
// the options (quick matrix or the whole, which workloads, a fingerprint to reuse), start, its
// stage and fio's progress, cancel, and the report. A dropped event channel is caught up through
// runStatus, as a run's is.
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { LabEvent } from '../../../shared/api/lab-events'
import type { FingerprintPreset, RealTargetInput, ValidateReport } from '../../../shared/api/real-contract'
import type { ValidateProgressEvent } from '../../../shared/api/real-events'
import { VALIDATE_MATRIX } from '../../../shared/validate/matrix'
import { errorText, useLab } from '../api'

export type ValidationStatus = 'idle' | 'starting' | 'running' | 'done' | 'failed' | 'cancelled'

/** The workloads of the quick matrix, or of the whole one. */
export const matrixOf = (quick: boolean): string[] =>
  VALIDATE_MATRIX.filter((w) => !quick || w.quick).map((w) => w.id)

export const useValidation = defineStore('validation', () => {
  const status = ref<ValidationStatus>('idle')
  const runId = ref<string | null>(null)
  const progress = shallowRef<ValidateProgressEvent | null>(null)
  const report = shallowRef<ValidateReport | null>(null)
  const message = ref('')
  const notices = ref<string[]>([])
  const quick = ref(true)
  /** The workloads to run, by id: the quick matrix until changed. */
  const workloads = ref<string[]>(matrixOf(true))
  /** A fingerprinted preset to reuse; '' fingerprints the target first. */
  const presetName = ref('')
  /** Seconds per run; null: the lab's default (4, quick 2). */
  const seconds = ref<number | null>(null)
  const presets = shallowRef<FingerprintPreset[]>([])
  const presetProblems = ref<string[]>([])
  const busy = computed(() => status.value === 'starting' || status.value === 'running')
  let unsubscribe: (() => void) | null = null
  /** Events that arrive while startValidation is still answering. */
  let early: LabEvent[] = []

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

  function onEvent(e: LabEvent): void {
    if (status.value === 'starting') return void early.push(e)
    if (e.runId !== runId.value || status.value !== 'running') return
    if (e.type === 'validate:progress') progress.value = e
    else if (e.type === 'run:notice') {
      if (!notices.value.includes(e.message)) notices.value.push(e.message)
    } else if (e.type === 'validate:done') {
      report.value = e.report
      status.value = 'done'
    } else if (e.type === 'validate:failed') {
      status.value = e.cancelled ? 'cancelled' : 'failed'
      message.value = e.cancelled ? 'Cancelled: the device was restored.' : e.message
    }
  }

  function listen(): void {
    if (unsubscribe) return
    unsubscribe = useLab().onEvent(onEvent)
    useLab().onReconnect(() => void recover())
  }

  /** After the event channel dropped: replay what the lab kept of the validation. */
  async function recover(): Promise<void> {
    const id = runId.value
    if (!id || status.value !== 'running') return
    let s
    try {
      s = await useLab().runStatus({ runId: id })
    } catch {
      return // still unreachable: the next reconnect tries again
    }
    if (id !== runId.value || status.value !== 'running') return
    if (s.state === 'unknown') {
      status.value = 'failed'
      message.value = 'The lab no longer knows this validation (was it restarted?).'
      return
    }
    for (const e of s.events) onEvent(e)
  }

  async function start(target: RealTargetInput): Promise<void> {
    if (busy.value) return
    listen()
    status.value = 'starting'
    early = []
    report.value = null
    progress.value = null
    message.value = ''
    notices.value = []
    const all = matrixOf(quick.value)
    const whole = workloads.value.length === all.length && all.every((w) => workloads.value.includes(w))
    try {
      const r = await useLab().startValidation({
        target,
        quick: quick.value,
        ...(presetName.value ? { presetName: presetName.value } : {}),
        ...(seconds.value ? { seconds: seconds.value } : {}),
        // the matrix's order, whatever the order of the ticks
        ...(whole
          ? {}
          : { only: VALIDATE_MATRIX.map((w) => w.id).filter((w) => workloads.value.includes(w)) }),
      })
      if ('problems' in r) {
        status.value = 'failed'
        message.value = r.problems.join('\n')
        return
      }
      runId.value = r.runId
      status.value = 'running'
      for (const e of early.splice(0)) onEvent(e)
    } catch (e) {
      status.value = 'failed'
      message.value = errorText(e)
    }
  }

  async function cancel(): Promise<void> {
    if (status.value === 'running' && runId.value) await useLab().cancelRun({ runId: runId.value })
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
