// The renderer's one way to the lab: a typed LabApi plus run events, over whichever transport the
// page was started with (Electron's preload bridge or the browser host's HTTP + WebSocket, see
// transports.ts). Every store and component calls `useLab()`; nothing else talks to main.
import type { LabApi, LabMethod } from '../../shared/api/contract'
import { ApiError } from '../../shared/api/errors'
import type { LabReply } from '../../shared/api/errors'
import type { LabListener } from '../../shared/api/lab-events'
import { LAB_METHODS } from '../../shared/api/methods'
import type { FileDialogs } from '../../shared/api/file-dialogs'

/** How calls and events travel; the client adds types and turns error replies into ApiErrors. */
export interface LabTransport {
  call(method: LabMethod, input: unknown): Promise<LabReply>
  subscribe(listener: LabListener): () => void
  /** Called after the event channel came back from a drop (events meanwhile are lost). */
  onReconnect?(listener: () => void): () => void
}

export type LabClient = LabApi & {
  /** Listen to run events; returns the unsubscribe. */
  onEvent(listener: LabListener): () => void
  /** Listen for the event channel coming back after a drop (then ask `runStatus`). */
  onReconnect(listener: () => void): () => void
}

export function createLabClient(transport: LabTransport): LabClient {
  const client: Record<string, unknown> = {
    onEvent: (l: LabListener) => transport.subscribe(l),
    onReconnect: (l: () => void) => transport.onReconnect?.(l) ?? (() => undefined),
  }
  for (const m of LAB_METHODS) {
    client[m] = async (input?: unknown): Promise<unknown> => {
      const reply = await transport.call(m, input)
      if ('error' in reply) throw ApiError.from(reply.error)
      return reply.value
    }
  }
  return client as unknown as LabClient
}

let current: LabClient | null = null

/** Install the client (main.ts at start-up; tests with a fake transport). */
export function setLab(client: LabClient | null): void {
  current = client
}

export function useLab(): LabClient {
  if (!current) throw new Error('the lab client is not installed (setLab)')
  return current
}

let dialogs: FileDialogs | null = null

/** Install the desktop's file dialogs (main.ts, inside Electron; tests with a stand-in). */
export function setFileDialogs(d: FileDialogs | null): void {
  dialogs = d
}

/** The desktop's save and open dialogs, or null in a browser (where paths are typed). */
export function useFileDialogs(): FileDialogs | null {
  return dialogs
}

/** A message for any thrown value. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}
