// The view in the URL's hash (#/setup …), so a reload stays on the same page.
import { watch } from 'vue'
import { useUi } from '../stores/ui'
import type { View } from '../stores/ui'

const VIEWS: View[] = ['start', 'setup', 'results', 'sweep', 'bench', 'devices', 'library', 'gallery']

export function useHashView(): void {
  const ui = useUi()
  const fromHash = (): void => {
    const v = location.hash.replace(/^#\/?/, '') as View
    if (VIEWS.includes(v)) ui.view = v
  }
  fromHash()
  window.addEventListener('hashchange', fromHash)
  watch(
    () => ui.view,
    (v) => {
      if (location.hash !== `#/${v}`) history.replaceState(null, '', `#/${v}`)
    },
  )
}
