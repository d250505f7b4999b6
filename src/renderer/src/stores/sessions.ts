// Sessions: the library's list, the session now open, save (to the library or any path) and open.
import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { SessionInfo } from '../../../shared/api/contract'
import { errorText, useLab } from '../api'
import { useExperiment } from './experiment'
import { useRun } from './run'

export const useSessions = defineStore('sessions', () => {
  const list = ref<SessionInfo[]>([])
  const folder = ref('')
  /** The session the current work was opened from or last saved to. */
  const current = ref<{ name: string; path: string } | null>(null)
  const error = ref('')
  const busy = ref(false)

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

  /** Save the experiment and its results; `path` saves as a file anywhere. */
  async function save(name: string, path?: string): Promise<SessionInfo | null> {
    const exp = useExperiment()
    const run = useRun()
    busy.value = true
    try {
      const info = await useLab().saveSession({
        name,
        spec: exp.doc,
        result: run.status === 'done' ? run.result : null,
        sweep: run.status === 'done' ? run.sweep : null,
        ...(path ? { path } : {}),
      })
      current.value = { name: info.name, path: info.path }
      error.value = ''
      void refresh()
      return info
    } catch (e) {
      error.value = errorText(e)
      return null
    } finally {
      busy.value = false
    }
  }

  async function open(path: string): Promise<boolean> {
    busy.value = true
    try {
      const doc = await useLab().openSession({ path })
      useExperiment().load(doc.spec)
      useRun().show(doc.result, doc.sweep)
      current.value = { name: doc.name, path }
      error.value = ''
      return true
    } catch (e) {
      error.value = errorText(e)
      return false
    } finally {
      busy.value = false
    }
  }

  return { list, folder, current, error, busy, refresh, save, open }
})
