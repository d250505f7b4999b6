// The bridge: window.lab has one function per LabApi method, built from the contract's one list,
// plus `onEvent` for run events. Nothing generic: no raw ipcRenderer, no channel names from the page.
import { contextBridge, ipcRenderer } from 'electron'
import type { LabMethod } from '../shared/api/contract'
import type { LabReply } from '../shared/api/errors'
import type { LabEvent } from '../shared/api/lab-events'
import { channelOf, EVENT_CHANNEL, LAB_METHODS } from '../shared/api/methods'
import { FILE_DIALOG_CHANNELS } from '../shared/api/file-dialogs'
import type { FileDialogRequest } from '../shared/api/file-dialogs'
// From the .d.ts by name: next to index.ts, TypeScript would otherwise take it for this file's output.
import type { LabBridge } from './index.d'

const call =
  (m: LabMethod) =>
  (input?: unknown): Promise<LabReply> =>
    ipcRenderer.invoke(channelOf(m), input)

const methods = Object.fromEntries(LAB_METHODS.map((m) => [m, call(m)])) as LabBridge['methods']

const lab: LabBridge = {
  methods,
  onEvent(listener: (e: LabEvent) => void): () => void {
    const handler = (_e: Electron.IpcRendererEvent, event: LabEvent): void => listener(event)
    ipcRenderer.on(EVENT_CHANNEL, handler)
    return () => void ipcRenderer.off(EVENT_CHANNEL, handler)
  },
  dialogs: {
    saveSession: (r: FileDialogRequest) => ipcRenderer.invoke(FILE_DIALOG_CHANNELS.saveSession, r),
    openSession: (r: FileDialogRequest) => ipcRenderer.invoke(FILE_DIALOG_CHANNELS.openSession, r),
    chooseDirectory: (r: FileDialogRequest) => ipcRenderer.invoke(FILE_DIALOG_CHANNELS.chooseDirectory, r),
  },
}

contextBridge.exposeInMainWorld('lab', lab)
