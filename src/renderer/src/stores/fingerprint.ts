// Fingerprinting a device: start, progress, cancel, and the fitted preset it saved (which the
// catalogue then lists, so Setup can simulate on a model of this very device).
import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type { LabEvent } from '../../../shared/api/lab-events'
import type { FingerprintOutcome, RealTargetInput } from '../../../shared/api/real-contract'
import { errorText, useLab } from '../api'
import { useCatalogue } from './catalogue'

export type FingerprintStatus = 'idle' | 'starting' | 'running' | 'done' | 'failed' | 'cancelled'

export const useFingerprint = defineStore('fingerprint', () => {
  const status = ref<FingerprintStatus>('idle')
  const runId = ref<string | null>(null)
  const fraction = ref<number | null>(null)
  const etaSeconds = ref<number | null>(null)
  const outcome = shallowRef<FingerprintOutcome | null>(null)
  const message = ref('')
  const notices = ref<string[]>([])
  const seconds = ref(3)
  const name = ref('')
  let unsubscribe: (() => void) | null = null

  /** Events that arrive while startFingerprint is still answering. */
  let early: LabEvent[] = []

  function onEvent(e: LabEvent): void {
    if (status.value === 'starting') return void early.push(e)
    if (e.runId !== runId.value) return
    if (e.type === 'fingerprint:progress') {
      fraction.value = e.fraction
      etaSeconds.value = e.etaSeconds
    } else if (e.type === 'run:notice') notices.value.push(e.message)
    else if (e.type === 'fingerprint:done') {
      outcome.value = e.outcome
      status.value = 'done'
      fraction.value = 1
      // the new preset is in the catalogue now
      void useCatalogue().load(true)
    } else if (e.type === 'fingerprint:failed') {
      status.value = e.cancelled ? 'cancelled' : 'failed'
      message.value = e.cancelled ? 'Cancelled: the device was restored.' : e.message
    }
  }

  async function start(target: RealTargetInput): Promise<void> {
    if (status.value === 'starting' || status.value === 'running') return
    unsubscribe ??= useLab().onEvent(onEvent)
    status.value = 'starting'
    early = []
    outcome.value = null
    message.value = ''
    notices.value = []
    fraction.value = null
    etaSeconds.value = null
    try {
      const r = await useLab().startFingerprint({
        target,
        seconds: seconds.value,
        ...(name.value.trim() ? { name: name.value.trim() } : {}),
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
    fraction,
    etaSeconds,
    outcome,
    message,
    notices,
    seconds,
    name,
    start,
    cancel,
    onEvent,
  }
})
