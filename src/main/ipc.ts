// Electron IPC glue: every LabApi method registered from the one exhaustive list, each input
// validated with the shared schema, each call checked to come from our own page's top frame.
// Events go to every window of ours on one channel.
import { BrowserWindow, ipcMain } from 'electron'
import type { IpcMainInvokeEvent } from 'electron'
import type { LabApi } from '../shared/api/contract'
import { toErrorData } from '../shared/api/errors'
import type { LabReply } from '../shared/api/errors'
import type { LabEvent } from '../shared/api/lab-events'
import { channelOf, EVENT_CHANNEL, LAB_METHODS } from '../shared/api/methods'
import { callLabMethod } from '../shared/api/serve'
import { isAppUrl } from './security'

/** IPC is answered only for our own page in the top frame, never for a frame it might embed. */
export function checkSender(event: IpcMainInvokeEvent, appUrl: string): void {
  const frame = event.senderFrame
  if (!frame || frame.parent || !isAppUrl(frame.url, appUrl)) {
    throw new Error(`lab: refused IPC from ${frame?.url ?? 'a destroyed frame'}`)
  }
}

/**
 * Register `lab:<method>` for every method. A failed call resolves to `{ error }` rather than
 * rejecting, because Electron flattens a rejection into a message string and the renderer needs
 * the error's kind and issues.
 */
export function registerLabIpc(api: LabApi, appUrl: string): void {
  for (const method of LAB_METHODS) {
    ipcMain.handle(channelOf(method), async (event, input: unknown) => {
      checkSender(event, appUrl)
      try {
        return { value: await callLabMethod(api, method, input) } satisfies LabReply
      } catch (e) {
        return { error: toErrorData(e) } satisfies LabReply
      }
    })
  }
}

/** Send an event to every window showing our page. */
export function broadcast(event: LabEvent, appUrl: string): void {
  for (const w of BrowserWindow.getAllWindows()) {
    const wc = w.webContents
    if (!wc.isDestroyed() && isAppUrl(wc.getURL(), appUrl)) wc.send(EVENT_CHANNEL, event)
  }
}
