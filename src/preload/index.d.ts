import type { Catalogue } from '../shared/catalogue'

/** What the preload exposes to the renderer as `window.lab`: one function per IPC message. */
export interface LabBridge {
  /** Everything the lab can model: schedulers, device models and presets, hosts, workloads. */
  catalogue(): Promise<Catalogue>
}

declare global {
  interface Window {
    /** Set by the preload inside the Electron app; absent when the renderer runs in a plain browser. */
    lab?: LabBridge
  }
}
