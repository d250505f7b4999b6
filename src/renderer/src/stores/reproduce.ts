// Reproducing a gallery entry (`iosched-lab reproduce NAME`): start it, where it is (simulation k
// of n and how far), cancel, and the verdict — simulated beside published figures, each claim PASS
// or FAIL. A dropped event channel is caught up through runStatus, as a run's is.
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { GalleryEntryView, ReproduceReport } from '../../../shared/api/gallery-contract'
import type { ReproduceProgressEvent } from '../../../shared/api/gallery-events'
import type { LabEvent } from '../../../shared/api/lab-events'
import { errorText, useLab } from '../api'

export type ReproduceStatus = 'idle' | 'starting' | 'running' | 'done' | 'failed' | 'cancelled'

export const useReproduce = defineStore('reproduce', () => {
  const status = ref<ReproduceStatus>('idle')
  /** The entry asked for (shown while it starts, before the lab answers with the entry). */
  const name = ref('')
  const runId = ref<string | null>(null)
  const entry = shallowRef<GalleryEntryView | null>(null)
  const progress = shallowRef<ReproduceProgressEvent | null>(null)
  const report = shallowRef<ReproduceReport | null>(null)
  const message = ref('')
  const busy = computed(() => status.value === 'starting' || status.value === 'running')
  let unsubscribe: (() => void) | null = null
  /** Events that arrive while startReproduce is still answering. */
  let early: LabEvent[] = []

  function onEvent(e: LabEvent): void {
    if (status.value === 'starting') return void early.push(e)
    if (e.runId !== runId.value || status.value !== 'running') return
    if (e.type === 'reproduce:progress') progress.value = e
    else if (e.type === 'reproduce:done') {
      report.value = e.report
      status.value = 'done'
    } else if (e.type === 'reproduce:failed') {
      status.value = e.cancelled ? 'cancelled' : 'failed'
      message.value = e.cancelled ? 'Cancelled: its simulations were stopped.' : e.message
    }
  }

  function listen(): void {
    if (unsubscribe) return
    unsubscribe = useLab().onEvent(onEvent)
    useLab().onReconnect(() => void recover())
  }

  /** After the event channel dropped: replay what the lab kept of the reproduction. */
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
      message.value = 'The lab no longer knows this reproduction (was it restarted?).'
      return
    }
    for (const e of s.events) onEvent(e)
  }

  async function start(entryName: string): Promise<void> {
    if (busy.value) return
    listen()
    status.value = 'starting'
    name.value = entryName
    early = []
    if (entry.value?.name !== entryName) entry.value = null
    report.value = null
    progress.value = null
    message.value = ''
    try {
      const r = await useLab().startReproduce({ name: entryName })
      if ('problems' in r) {
        status.value = 'failed'
        message.value = r.problems.join('\n')
        return
      }
      runId.value = r.runId
      entry.value = r.entry
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

  return { status, name, runId, entry, progress, report, message, busy, start, cancel, onEvent, recover }
})
