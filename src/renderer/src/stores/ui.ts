// Where the user is and how the lab looks: the view, the theme, the baseline of the comparison.
import { defineStore } from 'pinia'
import { ref } from 'vue'

export type View = 'start' | 'setup' | 'results' | 'sweep' | 'bench' | 'devices' | 'library' | 'gallery'
export type Theme = 'system' | 'light' | 'dark'

export const VIEWS: { id: View; title: string }[] = [
  { id: 'start', title: 'Start' },
  { id: 'setup', title: 'Setup' },
  { id: 'results', title: 'Results' },
  { id: 'sweep', title: 'Sweep' },
  { id: 'devices', title: 'Devices' },
  { id: 'library', title: 'Library' },
]

export const useUi = defineStore('ui', () => {
  const view = ref<View>('start')
  const theme = ref<Theme>('system')
  /** The theme actually shown (system resolved), for chart colours. */
  const dark = ref(false)
  /** Label of the baseline scheduler for ratios ('' = none). */
  const baseline = ref('')
  /** Run even beyond the work limits (experiment/work-limits.ts): the setup's "Allow large runs". */
  const allowLarge = ref(false)
  /**
   * A section of Results to take the user to when the run going ends well ('why': after a
   * gallery entry's "Run … and see why"); '' for none.
   */
  const revealAfterRun = ref<'' | 'why'>('')
  /** A short message at the bottom (saved, opened …). */
  const notice = ref('')
  let noticeTimer: ReturnType<typeof setTimeout> | null = null

  function go(v: View): void {
    view.value = v
  }

  function tell(text: string): void {
    notice.value = text
    if (noticeTimer) clearTimeout(noticeTimer)
    noticeTimer = setTimeout(() => (notice.value = ''), 4000)
  }

  return { view, theme, dark, baseline, allowLarge, revealAfterRun, notice, go, tell }
})
