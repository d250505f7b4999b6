// Keyboard shortcuts: Ctrl/⌘+Enter runs, Escape cancels a run, Ctrl/⌘+S saves.
import { onBeforeUnmount, onMounted } from 'vue'

export interface Shortcuts {
  run(): void
  cancel(): void
  save(): void
}

export function useShortcuts(s: Shortcuts): void {
  const onKey = (e: KeyboardEvent): void => {
    const mod = e.ctrlKey || e.metaKey
    if (mod && e.key === 'Enter') {
      e.preventDefault()
      s.run()
    } else if (mod && (e.key === 's' || e.key === 'S')) {
      e.preventDefault()
      s.save()
    } else if (e.key === 'Escape' && !e.defaultPrevented) {
      s.cancel()
    }
  }
  onMounted(() => window.addEventListener('keydown', onKey))
  onBeforeUnmount(() => window.removeEventListener('keydown', onKey))
}
