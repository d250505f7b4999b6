// Reproducing a gallery entry (`iosched-lab reproduce NAME`): start it, where it is (simulation k
// of n and how far), cancel, and the verdict — simulated beside published figures, each claim PASS
// or FAIL. A dropped event channel is caught up through runStatus, as a run's is.
import { defineStore } from 'pinia'
import { ref, shallowRef, watch } from 'vue'
import type { GalleryEntryView, ReproduceReport } from '../../../shared/api/gallery-contract'
import type { ReproduceProgressEvent } from '../../../shared/api/gallery-events'
import { useLab } from '../api'
import { storage, tabStorage } from '../lib/local-storage'
import { longJob } from './long-job'
import type { JobStatus } from './long-job'

/** Where the tab keeps its last verdict. */
export const KEPT_KEY = 'iosched-lab.reproduce.last'

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

/** The kept verdict from its stored text; null when there is none or it is not one. */
export function keptVerdict(
  text: string | null,
): { entry: GalleryEntryView; report: ReproduceReport } | null {
  if (!text) return null
  let v: unknown
  try {
    v = JSON.parse(text)
  } catch {
    return null
  }
  if (!isObject(v) || !isObject(v.entry) || !isObject(v.report)) return null
  const { entry, report } = v
  if (typeof entry.name !== 'string' || report.name !== entry.name) return null
  if (!Array.isArray(report.figures) || !Array.isArray(report.claims)) return null
  return { entry: entry as unknown as GalleryEntryView, report: report as unknown as ReproduceReport }
}

/** Where the lab keeps each entry's last verdict in short, for the start page's cards. */
export const VERDICTS_KEY = 'iosched-lab.reproduce.verdicts'

/** An entry's last reproduction in short: its claims that held and failed, and when it ended. */
export interface LastVerdict {
  pass: number
  fail: number
  /** ISO time it ended. */
  at: string
}

/** The kept verdicts from their stored text, by entry name; those that are not one are left out. */
export function keptVerdicts(text: string | null): Record<string, LastVerdict> {
  let v: unknown
  try {
    v = JSON.parse(text ?? '{}')
  } catch {
    return {}
  }
  if (!isObject(v)) return {}
  const out: Record<string, LastVerdict> = {}
  for (const [name, x] of Object.entries(v))
    if (
      isObject(x) &&
      Number.isInteger(x.pass) &&
      Number.isInteger(x.fail) &&
      typeof x.at === 'string' &&
      !Number.isNaN(Date.parse(x.at))
    )
      out[name] = { pass: x.pass as number, fail: x.fail as number, at: x.at }
  return out
}

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
        remember(e.report)
        job.status.value = 'done'
      } else if (e.type === 'reproduce:failed') job.ended(e)
    },
  })
  const { status, runId, message, busy, onEvent, recover, cancel } = job

  // the last verdict survives a reload of the tab (the view is in the URL: #/gallery)
  const kept = keptVerdict(tabStorage()?.getItem(KEPT_KEY) ?? null)
  if (kept) {
    name.value = kept.entry.name
    entry.value = kept.entry
    report.value = kept.report
    status.value = 'done'
  }
  watch(report, (v) => {
    try {
      if (v && entry.value) tabStorage()?.setItem(KEPT_KEY, JSON.stringify({ entry: entry.value, report: v }))
    } catch {
      // full or refused: the verdict just does not survive a reload
    }
  })

  // each entry's last verdict in short, on its card: kept across restarts (the app's storage, as
  // its other choices), since "when it was run" says how old it is
  const verdicts = ref<Record<string, LastVerdict>>(keptVerdicts(storage()?.getItem(VERDICTS_KEY) ?? null))
  function remember(r: ReproduceReport): void {
    const fail = r.claims.length - r.holding
    verdicts.value = { ...verdicts.value, [r.name]: { pass: r.holding, fail, at: new Date().toISOString() } }
    try {
      storage()?.setItem(VERDICTS_KEY, JSON.stringify(verdicts.value))
    } catch {
      // full or refused: the cards show it until the app closes
    }
  }

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

  return {
    status,
    name,
    runId,
    entry,
    progress,
    report,
    verdicts,
    message,
    busy,
    start,
    cancel,
    onEvent,
    recover,
  }
})
