// The desktop's save and open dialogs for the page (see src/shared/api/file-dialogs.ts): asked
// over IPC by our own page only, shown as sheets of the asking window.
import { BrowserWindow, dialog, ipcMain } from 'electron'
import type { IpcMainInvokeEvent, OpenDialogOptions, SaveDialogOptions } from 'electron'
import { checkDialogRequest, FILE_DIALOG_CHANNELS, SESSION_FILE_FILTERS } from '../shared/api/file-dialogs'
import type { FileDialogRequest } from '../shared/api/file-dialogs'
import { checkSender } from './ipc'

export function registerFileDialogs(appUrl: string): void {
  /** Answer `channel` with what `show` chose, shown as a sheet of the asking window. */
  const handle = (
    channel: string,
    show: (win: BrowserWindow | null, r: FileDialogRequest) => Promise<string | null>,
  ): void =>
    void ipcMain.handle(channel, async (event: IpcMainInvokeEvent, input: unknown) => {
      checkSender(event, appUrl)
      return show(BrowserWindow.fromWebContents(event.sender), checkDialogRequest(input))
    })

  handle(FILE_DIALOG_CHANNELS.saveSession, async (win, r) => {
    const options: SaveDialogOptions = {
      title: r.title ?? 'Save the session as',
      defaultPath: r.defaultPath,
      filters: SESSION_FILE_FILTERS,
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    }
    const res = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options)
    return res.canceled || !res.filePath ? null : res.filePath
  })

  handle(FILE_DIALOG_CHANNELS.openSession, async (win, r) => {
    const options: OpenDialogOptions = {
      title: r.title ?? 'Open a session',
      defaultPath: r.defaultPath,
      filters: SESSION_FILE_FILTERS,
      properties: ['openFile'],
    }
    const res = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options)
    return res.canceled || res.filePaths.length === 0 ? null : res.filePaths[0]
  })

  handle(FILE_DIALOG_CHANNELS.chooseDirectory, async (win, r) => {
    const options: OpenDialogOptions = {
      title: r.title ?? 'Choose a directory',
      defaultPath: r.defaultPath,
      properties: ['openDirectory', 'createDirectory'],
    }
    const res = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options)
    return res.canceled || res.filePaths.length === 0 ? null : res.filePaths[0]
  })
}
