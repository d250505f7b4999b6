// Unsaved work in the desktop app. The page holds a reload or a close of its window while work is
// not saved (beforeunload, useUnsavedGuard.ts); Electron shows no question of its own for that but
// emits will-prevent-unload, so the window asks here and lets the page go only when told to. And
// the app quits only after its windows have closed — each may stay, asked — and then the lab has
// put every device back (will-quit): a window that stays keeps a working lab.
import { dialog } from 'electron'
import type { App, BrowserWindow, MessageBoxSyncOptions } from 'electron'

/** The question, and which of its buttons leaves. */
export const UNSAVED_QUESTION: MessageBoxSyncOptions = {
  type: 'warning',
  title: 'Unsaved work',
  message: 'The work in this window is not saved.',
  detail:
    'Its results, imported runs and notes not yet saved would be lost. Save with Ctrl+S first, or leave without saving.',
  buttons: ['Leave without saving', 'Stay'],
  defaultId: 1,
  cancelId: 1,
  noLink: true,
}
export const LEAVE = 0

/** Ask in `win` whenever its page holds an unload for unsaved work; leave only on "Leave". */
export function askBeforeDroppingWork(win: BrowserWindow): void {
  win.webContents.on('will-prevent-unload', (event) => {
    // preventing the event overrides the page's hold: the reload or close goes ahead
    if (dialog.showMessageBoxSync(win, UNSAVED_QUESTION) === LEAVE) event.preventDefault()
  })
}

/**
 * Quit once the windows have closed (a quit they refuse does not reach will-quit) and `dispose`
 * is done: every real run has put its device back, the helper has gone.
 */
export function quitAfterDispose(app: Pick<App, 'on' | 'quit'>, dispose: () => Promise<void>): void {
  let disposed = false
  app.on('will-quit', (event) => {
    if (disposed) return
    event.preventDefault()
    void dispose().finally(() => {
      disposed = true
      app.quit()
    })
  })
}
