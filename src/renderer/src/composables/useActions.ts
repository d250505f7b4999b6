// What the header buttons and the keyboard shortcuts do: run, cancel, save.
import { computed, ref } from 'vue'
import { estimateWork } from '../../../shared/experiment/work-estimate'
import { workExcesses } from '../../../shared/experiment/work-limits'
import { useExperiment } from '../stores/experiment'
import { useRun } from '../stores/run'
import { useSessions } from '../stores/sessions'
import { useSweep } from '../stores/sweep'
import { useUi } from '../stores/ui'
import { useReproduce } from '../stores/reproduce'
import { useFingerprint } from '../stores/fingerprint'
import { useValidation } from '../stores/validation'

/** Whether the save dialog is open (shared by the header and the shortcut). */
const saveDialog = ref<'closed' | 'save' | 'save-as'>('closed')

export function useActions() {
  const exp = useExperiment()
  const run = useRun()
  const sessions = useSessions()
  const sweep = useSweep()
  const ui = useUi()
  const reproduce = useReproduce()
  const fingerprint = useFingerprint()
  const validation = useValidation()

  /**
   * The long job the header's Cancel and Esc stop: the run, else a gallery reproduction, a
   * fingerprint or a validation going (one at a time is the usual case; the run goes first).
   */
  const cancellable = computed((): { what: string; cancel(): Promise<void> } | null => {
    if (run.running) return { what: 'the run', cancel: () => run.cancel() }
    if (reproduce.busy) return { what: 'the reproduction', cancel: () => reproduce.cancel() }
    if (fingerprint.status === 'starting' || fingerprint.status === 'running')
      return { what: 'the fingerprint', cancel: () => fingerprint.cancel() }
    if (validation.busy) return { what: 'the validation', cancel: () => validation.cancel() }
    return null
  })

  async function runNow(): Promise<void> {
    if (run.running) return
    if (!(await exp.validate())) {
      ui.go('setup')
      ui.tell('The spec has problems: see the fields marked in red.')
      return
    }
    const allowLarge = ui.allowLarge
    if (ui.view === 'sweep') {
      const s = sweep.spec()
      if (!s) return ui.tell(sweep.problem || 'Choose a parameter and its values.')
      await run.start({ spec: exp.doc, sweep: s, allowLarge })
      return
    }
    if (!allowLarge && exp.resolved && workExcesses(estimateWork([exp.resolved])).length > 0) {
      ui.go('setup')
      ui.tell('The run is beyond the work limits: see the estimate in the setup, or tick “Allow large runs”.')
      return
    }
    ui.go('results')
    await run.start({ spec: exp.doc, allowLarge })
  }

  function cancel(): void {
    void cancellable.value?.cancel()
  }

  /**
   * Save to the session file in use, or ask for a name; when that file was changed by another
   * writer since, the dialog asks what to do (the refusal is its conflict).
   */
  async function save(): Promise<void> {
    if (saveDialog.value !== 'closed') return
    if (!sessions.current) {
      saveDialog.value = 'save'
      return
    }
    const info = await sessions.saveCurrent()
    if (info) ui.tell(`Saved “${info.name}” to ${info.path}`)
    else if (sessions.conflict) saveDialog.value = 'save'
    else ui.tell(`Could not save: ${sessions.error}`)
  }

  return { runNow, cancel, cancellable, save, saveDialog }
}
