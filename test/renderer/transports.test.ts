// The browser host's transport: when its WebSocket drops and comes back, it says so (the run store
// then asks runStatus for what it missed); the first connection is not a reconnect.
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LabTransport } from '../../src/renderer/src/api'

// transports.ts uses the DOM's globals, which the node-side type check of tests does not know:
// load it by a path the compiler does not follow.
const TRANSPORTS = '../../src/renderer/src/transports'
const { pageTransport } = (await import(TRANSPORTS)) as { pageTransport(): LabTransport }

class FakeSocket {
  static all: FakeSocket[] = []
  onopen: (() => void) | null = null
  onclose: (() => void) | null = null
  onmessage: ((m: { data: string }) => void) | null = null
  constructor(readonly url: string) {
    FakeSocket.all.push(this)
  }
  close(): void {
    this.onclose?.()
  }
}

const g = globalThis as Record<string, unknown>

afterEach(() => {
  vi.useRealTimers()
  for (const k of ['WebSocket', 'location', 'window']) delete g[k]
  FakeSocket.all = []
})

describe('the browser transport', () => {
  it('reports a reconnect after a drop, not the first connection', () => {
    vi.useFakeTimers()
    Object.assign(g, { WebSocket: FakeSocket, location: { protocol: 'http:', host: 'h:1' }, window: {} })
    const t = pageTransport()
    const events: unknown[] = []
    let reconnects = 0
    t.subscribe((e) => events.push(e))
    t.onReconnect?.(() => reconnects++)
    expect(FakeSocket.all.map((s) => s.url)).toEqual(['ws://h:1/api/events'])
    FakeSocket.all[0].onopen?.()
    FakeSocket.all[0].onmessage?.({ data: JSON.stringify({ type: 'run:notice', runId: 'r', message: 'm' }) })
    expect(events).toHaveLength(1)
    expect(reconnects).toBe(0)
    // the host went away for a moment
    FakeSocket.all[0].onclose?.()
    vi.advanceTimersByTime(1000)
    expect(FakeSocket.all).toHaveLength(2)
    FakeSocket.all[1].onopen?.()
    expect(reconnects).toBe(1)
  })
})
