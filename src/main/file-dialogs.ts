// The desktop's save and open dialogs for the page (see src/shared/api/file-dialogs.ts): asked
// over IPC by our own page only, shown as sheets of the asking window.
import { BrowserWindow, dialog, ipcMain } from 'electron'
import type { IpcMainInvokeEvent } from 'electron'
import { checkDialogRequest, FILE_DIALOG_CHANNELS, SESSION_FILE_FILTERS } from '../shared/api/file-dialogs'
import { checkSender } from './ipc'

export function registerFileDialogs(appUrl: string): void {
  const owner = (event: IpcMainInvokeEvent): BrowserWindow | null =>
    BrowserWindow.fromWebContents(event.sender)

  ipcMain.handle(FILE_DIALOG_CHANNELS.saveSession, async (event, input: unknown) => {
    checkSender(event, appUrl)
    const r = checkDialogRequest(input)
    const win = owner(event)
    const options = {
      title: r.title ?? 'Save the session as',
      defaultPath: r.defaultPath,
      filters: SESSION_FILE_FILTERS,
      properties: ['createDirectory', 'showOverwriteConfirmation'] as (
        'createDirectory' | 'showOverwriteConfirmation'
      )[],
    }
    const res = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options)
    return res.canceled || !res.filePath ? null : res.filePath
  })

  ipcMain.handle(FILE_DIALOG_CHANNELS.openSession, async (event, input: unknown) => {
    checkSender(event, appUrl)
    const r = checkDialogRequest(input)
    const win = owner(event)
    const options = {
      title: r.title ?? 'Open a session',
      defaultPath: r.defaultPath,
      filters: SESSION_FILE_FILTERS,
      properties: ['openFile'] as 'openFile'[],
    }
    const res = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options)
    return res.canceled || res.filePaths.length === 0 ? null : res.filePaths[0]
  })
}
