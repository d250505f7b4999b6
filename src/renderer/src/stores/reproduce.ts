// Reproducing a gallery entry (`iosched-lab reproduce NAME`): start it, where it is (simulation k
// of n and how far), cancel, and the verdict — simulated beside published figures, each claim PASS
// or FAIL. A dropped event channel is caught up through runStatus, as a run's is.
import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type { GalleryEntryView, ReproduceReport } from '../../../shared/api/gallery-contract'
import type { ReproduceProgressEvent } from '../../../shared/api/gallery-events'
import { useLab } from '../api'
import { longJob } from './long-job'
import type { JobStatus } from './long-job'

export type ReproduceStatus = JobStatus

export const useReproduce = defineStore('reproduce', () => {
  /** The entry asked for (shown while it starts, before the lab answers with the entry). */
  const name = ref('')
  const entry = shallowRef<GalleryEntryView | null>(null)
  const progress = shallowRef<ReproduceProgressEvent | null>(null)
  const report = shallowRef<ReproduceReport | null>(null)
  const job = longJob({
    what: 'reproduction',
    cancelled: 'Cancelled: its simulations were stopped.',
    event(e) {
      if (e.type === 'reproduce:progress') progress.value = e
      else if (e.type === 'reproduce:done') {
        report.value = e.report
        job.status.value = 'done'
      } else if (e.type === 'reproduce:failed') job.ended(e)
    },
  })
  const { status, runId, message, busy, onEvent, recover, cancel } = job

  async function start(entryName: string): Promise<void> {
    if (busy.value) return
    name.value = entryName
    if (entry.value?.name !== entryName) entry.value = null
    report.value = null
    progress.value = null
    await job.start(
      () => useLab().startReproduce({ name: entryName }),
      (r) => (entry.value = r.entry),
    )
  }

  return { status, name, runId, entry, progress, report, message, busy, start, cancel, onEvent, recover }
})
