// Sessions: the library's list, the session now open — its notes, tags and the runs imported into
// it — save (to the library or any path) and open. A save never replaces a file it was not told
// to: a refusal (a file is there, or the session changed since it was opened) is kept as the
// conflict to ask about. The work is unsaved while it differs from what was last saved or opened
// (or started anew): reloading or closing the window then asks first (useUnsavedGuard).
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { SessionInfo, SessionSaveInput } from '../../../shared/api/contract'
import { ApiError } from '../../../shared/api/errors'
import type { RunResult } from '../../../shared/experiment/result'
import { appendRuns } from '../../../shared/session/append-runs'
import { runKind } from '../../../shared/session/run-sets'
import { errorText, useLab } from '../api'
import { sweepableParams } from '../lib/sweepable'
import { sameWork, workState } from '../lib/work-state'
import type { WorkState } from '../lib/work-state'
import { useCatalogue } from './catalogue'
import { useExperiment } from './experiment'
import { useRun } from './run'
import { useSweep } from './sweep'

export const useSessions = defineStore('sessions', () => {
  const list = ref<SessionInfo[]>([])
  const folder = ref('')
  /** The session the current work was opened from or last saved to, and its revision then. */
  const current = ref<{ name: string; path: string; revision: number } | null>(null)
  /** The last save refused because of a file there: its message and what was asked, to ask again. */
  const conflict = ref<{ message: string; name: string; path?: string } | null>(null)
  /** Notes and tags of the current work, saved with it. */
  const notes = ref('')
  const tags = ref<string[]>([])
  /** Runs beside the result: imported from tools' outputs (kept shallow: read, never edited). */
  const extraRuns = shallowRef<RunResult[]>([])
  const error = ref('')
  const busy = ref(false)

  /** The work now, as a session would save it. */
  const work = (): WorkState => {
    const run = useRun()
    return workState({
      spec: useExperiment().doc,
      result: run.result,
      sweep: run.sweep,
      runs: extraRuns.value,
      notes: notes.value,
      tags: tags.value,
    })
  }
  /** The work as last saved or opened, or as started anew. */
  const savedWork = shallowRef<WorkState>(work())
  /** Whether reloading or closing now would lose work not saved. */
  const unsaved = computed(() => !sameWork(work(), savedWork.value))

  async function refresh(): Promise<void> {
    try {
      const lab = useLab()
      ;[list.value, folder.value] = await Promise.all([
        lab.listSessions(),
        lab.library().then((l) => l.folder),
      ])
      error.value = ''
    } catch (e) {
      error.value = errorText(e)
    }
  }

  /**
   * Save the experiment, its results and imported runs; `path` saves as a file anywhere. A file
   * there is replaced only as `replace` says (SessionSaveInput.replace): by default never.
   */
  async function save(
    name: string,
    path?: string,
    meta?: { notes: string; tags: string[] },
    replace?: SessionSaveInput['replace'],
  ): Promise<SessionInfo | null> {
    const exp = useExperiment()
    const run = useRun()
    busy.value = true
    conflict.value = null
    try {
      if (meta) {
        notes.value = meta.notes
        tags.value = meta.tags
      }
      const sent = work()
      const info = await useLab().saveSession({
        name,
        spec: exp.doc,
        // (each is there only once complete: a run under way has not replaced it yet)
        result: run.result,
        sweep: run.sweep,
        notes: notes.value,
        tags: tags.value,
        runs: extraRuns.value,
        ...(path ? { path } : {}),
        ...(replace !== undefined ? { replace } : {}),
      })
      current.value = { name: info.name, path: info.path, revision: info.revision ?? 0 }
      tags.value = info.tags ?? tags.value
      savedWork.value = { ...sent, tags: JSON.stringify(tags.value) }
      error.value = ''
      void refresh()
      return info
    } catch (e) {
      error.value = errorText(e)
      if (e instanceof ApiError && e.kind === 'conflict')
        conflict.value = { message: error.value, name, path }
      return null
    } finally {
      busy.value = false
    }
  }

  /**
   * Save to the session the work was opened from or last saved to, replacing it only as it was
   * then: a session another writer changed since is refused (a conflict), not overwritten.
   */
  async function saveCurrent(): Promise<SessionInfo | null> {
    const cur = current.value
    return cur ? save(cur.name, cur.path, undefined, { revision: cur.revision }) : null
  }

  async function open(path: string): Promise<boolean> {
    busy.value = true
    try {
      const doc = await useLab().openSession({ path })
      const exp = useExperiment()
      exp.load(doc.spec)
      // everything it holds comes back: the comparison and the sweep, with the sweep's setup
      useRun().show(doc.result, doc.sweep)
      const swept = doc.sweep?.sweep ?? null
      const param = swept
        ? sweepableParams(exp.doc, useCatalogue()).find((p) => p.path === swept.path)
        : undefined
      useSweep().restore(swept, param?.spec ?? null)
      conflict.value = null
      current.value = { name: doc.name, path, revision: doc.revision ?? 0 }
      notes.value = doc.notes ?? ''
      tags.value = doc.tags ?? []
      extraRuns.value = doc.runs ?? []
      savedWork.value = work()
      error.value = ''
      return true
    } catch (e) {
      error.value = errorText(e)
      return false
    } finally {
      busy.value = false
    }
  }

  /**
   * The notes and tags of a saved session were changed (in the Library): when it is the session
   * open here, its notes, tags and revision follow, so the next Save neither undoes the change
   * nor is refused for it.
   */
  function metaSaved(info: SessionInfo, meta: { notes: string; tags: string[] }): void {
    const cur = current.value
    const stem = (p: string): string => p.replace(/\.json(\.gz)?$/, '')
    if (!cur || stem(cur.path) !== stem(info.path)) return
    current.value = { name: info.name, path: info.path, revision: info.revision ?? cur.revision }
    notes.value = meta.notes
    tags.value = info.tags ?? meta.tags
    savedWork.value = { ...savedWork.value, notes: notes.value, tags: JSON.stringify(tags.value) }
  }

  /** New work (a gallery experiment, a blank spec): no session, notes, tags or imported runs. */
  function reset(): void {
    current.value = null
    notes.value = ''
    tags.value = []
    extraRuns.value = []
    savedWork.value = work()
  }

  /** Add imported runs; a label already there continues its repetitions. */
  function addRuns(runs: RunResult[]): void {
    extraRuns.value = appendRuns(extraRuns.value, runs)
  }

  /** Remove the imported runs of one label (and kind). */
  function removeRuns(label: string, kind: string): void {
    extraRuns.value = extraRuns.value.filter((r) => !(r.label === label && runKind(r) === kind))
  }

  return {
    list,
    folder,
    current,
    conflict,
    notes,
    tags,
    extraRuns,
    error,
    busy,
    unsaved,
    refresh,
    save,
    saveCurrent,
    metaSaved,
    open,
    reset,
    addRuns,
    removeRuns,
  }
})
