// Light, dark or the system's: set on <html data-theme>, remembered in localStorage, and resolved
// into ui.dark for the charts.
import { watch } from 'vue'
import { useUi } from '../stores/ui'
import type { Theme } from '../stores/ui'

const KEY = 'iosched-lab.theme'

export function useTheme(): void {
  const ui = useUi()
  const media = window.matchMedia('(prefers-color-scheme: dark)')
  const saved = localStorage.getItem(KEY)
  if (saved === 'light' || saved === 'dark' || saved === 'system') ui.theme = saved as Theme
  const apply = (): void => {
    ui.dark = ui.theme === 'dark' || (ui.theme === 'system' && media.matches)
    document.documentElement.dataset.theme = ui.dark ? 'dark' : 'light'
  }
  media.addEventListener('change', apply)
  watch(
    () => ui.theme,
    (t) => {
      localStorage.setItem(KEY, t)
      apply()
    },
    { immediate: true },
  )
}
