// Unsaved work is not dropped without asking: not by a reload or closing the window
// (beforeunload: a browser asks itself; the desktop app asks in main, src/main/unsaved-work.ts),
// nor by replacing the work with a gallery experiment or another session (asked here).
import { onBeforeUnmount, onMounted } from 'vue'
import { useSessions } from '../stores/sessions'

export const DISCARD_QUESTION =
  'The work here is not saved: its results, imported runs and notes would be lost. Go on without saving?'

/** What of a beforeunload event the guard sets. */
interface UnloadEvent {
  preventDefault(): void
  returnValue: unknown
}

/** What of the window the guard uses (there is none in Node, where the stores are tested). */
interface PageWindow {
  addEventListener(type: 'beforeunload', listener: (e: UnloadEvent) => void): void
  removeEventListener(type: 'beforeunload', listener: (e: UnloadEvent) => void): void
  confirm(question: string): boolean
}
const page = (): PageWindow | undefined => (globalThis as { window?: PageWindow }).window

/** Make a beforeunload event ask first when there is unsaved work; whether it does. */
export function holdUnload(e: UnloadEvent, unsaved: boolean): boolean {
  if (!unsaved) return false
  e.preventDefault()
  e.returnValue = true // what older Chromium and Electron look at
  return true
}

/** For App.vue: the page asks before it unloads with unsaved work. */
export function useUnsavedGuard(): void {
  const sessions = useSessions()
  const guard = (e: UnloadEvent): void => void holdUnload(e, sessions.unsaved)
  onMounted(() => page()?.addEventListener('beforeunload', guard))
  onBeforeUnmount(() => page()?.removeEventListener('beforeunload', guard))
}

/** Whether the work here may be replaced: nothing is unsaved, or the user said to go on. */
export function mayDiscardWork(
  ask: (question: string) => boolean = (q) => page()?.confirm(q) ?? true,
): boolean {
  return !useSessions().unsaved || ask(DISCARD_QUESTION)
}
