// A LabApi stand-in for store tests: answers from handlers, records calls, and emits events.
import { createLabClient, setLab } from '../../src/renderer/src/api'
import type { LabMethod } from '../../src/shared/api/contract'
import { ApiError } from '../../src/shared/api/errors'
import type { LabEvent, LabListener } from '../../src/shared/api/lab-events'

export type Handlers = Partial<Record<LabMethod, (input: unknown) => unknown>>

export function fakeLab(handlers: Handlers) {
  const calls: { method: LabMethod; input: unknown }[] = []
  const listeners = new Set<LabListener>()
  const reconnects = new Set<() => void>()
  const client = createLabClient({
    async call(method, input) {
      calls.push({ method, input })
      const h = handlers[method]
      if (!h) return { error: { kind: 'unknown-method', message: `no handler for ${method}` } }
      try {
        return { value: await h(input) }
      } catch (e) {
        return { error: e instanceof ApiError ? e.toData() : { kind: 'internal', message: String(e) } }
      }
    },
    subscribe(l) {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    onReconnect(r) {
      reconnects.add(r)
      return () => reconnects.delete(r)
    },
  })
  setLab(client)
  return {
    client,
    calls,
    emit: (e: LabEvent) => listeners.forEach((l) => l(e)),
    /** The event channel came back after a drop. */
    reconnect: () => reconnects.forEach((r) => r()),
    listeners,
  }
}
