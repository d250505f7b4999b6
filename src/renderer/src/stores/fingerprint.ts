// Fingerprinting a device: start, progress, cancel, and the fitted preset it saved (which the
// catalogue then lists, so Setup can simulate on a model of this very device).
import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type { FingerprintOutcome, RealDeviceTargetInput } from '../../../shared/api/real-contract'
import { useLab } from '../api'
import { longJob } from './long-job'
import type { JobStatus } from './long-job'
import { useCatalogue } from './catalogue'

export type FingerprintStatus = JobStatus

export const useFingerprint = defineStore('fingerprint', () => {
  const fraction = ref<number | null>(null)
  const etaSeconds = ref<number | null>(null)
  const outcome = shallowRef<FingerprintOutcome | null>(null)
  const notices = ref<string[]>([])
  const seconds = ref(3)
  const name = ref('')
  const job = longJob({
    what: 'fingerprint',
    cancelled: 'Cancelled: the device was restored.',
    event(e) {
      if (e.type === 'fingerprint:progress') {
        fraction.value = e.fraction
        etaSeconds.value = e.etaSeconds
      } else if (e.type === 'run:notice') notices.value.push(e.message)
      else if (e.type === 'fingerprint:done') {
        outcome.value = e.outcome
        job.status.value = 'done'
        fraction.value = 1
        // the new preset is in the catalogue now
        void useCatalogue().load(true)
      } else if (e.type === 'fingerprint:failed') job.ended(e)
    },
  })
  const { status, runId, message, onEvent, cancel } = job

  async function start(target: RealDeviceTargetInput): Promise<void> {
    if (job.busy.value) return
    outcome.value = null
    notices.value = []
    fraction.value = null
    etaSeconds.value = null
    await job.start(() =>
      useLab().startFingerprint({
        target,
        seconds: seconds.value,
        ...(name.value.trim() ? { name: name.value.trim() } : {}),
      }),
    )
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
