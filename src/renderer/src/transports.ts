// The two ways the page reaches the lab: Electron's preload bridge (window.lab) or the browser host
// (`iosched-lab serve`): POST /api/<method> and a WebSocket at /api/events, authorised by the
// cookie the host set when the page was opened with its token.
import type { LabMethod } from '../../shared/api/contract'
import type { LabReply } from '../../shared/api/errors'
import type { LabEvent, LabListener } from '../../shared/api/lab-events'
import type { LabTransport } from './api'

function bridgeTransport(bridge: NonNullable<Window['lab']>): LabTransport {
  return {
    call: (m, input) => bridge.methods[m](input),
    subscribe: (l) => bridge.onEvent(l),
  }
}

const NOT_AUTHORISED: LabReply = {
  error: {
    kind: 'internal',
    message: 'not authorised: open the lab with the URL (and token) that `iosched-lab serve` printed',
  },
}

function httpTransport(): LabTransport {
  const listeners = new Set<LabListener>()
  const reconnects = new Set<() => void>()
  let socket: WebSocket | null = null
  let retry = 500
  let opened = false
  const connect = (): void => {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:'
    socket = new WebSocket(`${scheme}//${location.host}/api/events`)
    socket.onopen = () => {
      retry = 500
      // events sent while the socket was down are lost: tell whoever needs to catch up
      if (opened) for (const r of reconnects) r()
      opened = true
    }
    socket.onmessage = (m) => {
      const e = JSON.parse(String(m.data)) as LabEvent
      for (const l of listeners) l(e)
    }
    socket.onclose = () => {
      socket = null
      if (listeners.size) setTimeout(connect, (retry = Math.min(retry * 2, 10_000)))
    }
  }
  return {
    async call(m: LabMethod, input: unknown): Promise<LabReply> {
      const res = await fetch(`/api/${m}`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json' },
        body: input === undefined ? '' : JSON.stringify(input),
      })
      if (res.status === 401 || res.status === 403) return NOT_AUTHORISED
      return (await res.json()) as LabReply
    },
    subscribe(l) {
      listeners.add(l)
      if (!socket) connect()
      return () => {
        listeners.delete(l)
        if (!listeners.size) socket?.close()
      }
    },
    onReconnect(r) {
      reconnects.add(r)
      return () => reconnects.delete(r)
    },
  }
}

/** The transport for this page: the preload's bridge inside Electron, else the browser host. */
export function pageTransport(): LabTransport {
  return window.lab ? bridgeTransport(window.lab) : httpTransport()
}
