// The bridge: window.lab has one function per IPC message, and nothing generic (no raw ipcRenderer).
import { contextBridge, ipcRenderer } from 'electron'
// From the .d.ts by name: next to index.ts, TypeScript would otherwise take it for this file's output.
import type { LabBridge } from './index.d'

const lab: LabBridge = {
  catalogue: () => ipcRenderer.invoke('lab:catalogue'),
}

contextBridge.exposeInMainWorld('lab', lab)
