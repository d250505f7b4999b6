import type { LabMethod } from '../shared/api/contract'
import type { LabReply } from '../shared/api/errors'
import type { LabEvent } from '../shared/api/lab-events'
import type { FileDialogs } from '../shared/api/file-dialogs'

/**
 * What the preload exposes to the renderer as `window.lab`: one function per LabApi method
 * (answering `{ value }` or `{ error }`, see LabReply) and a subscription to run events. The
 * renderer's api client (src/renderer/src/api.ts) turns this into a typed LabApi.
 */
export interface LabBridge {
  methods: { [M in LabMethod]: (input?: unknown) => Promise<LabReply> }
  onEvent(listener: (event: LabEvent) => void): () => void
  /** The desktop's save and open dialogs. */
  dialogs: FileDialogs
}

declare global {
  interface Window {
    /** Set by the preload inside the Electron app; absent when the renderer runs in a plain browser. */
    lab?: LabBridge
  }
}
