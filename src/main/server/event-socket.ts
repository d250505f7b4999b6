// Run events to browsers over a WebSocket at /api/events: one JSON LabEvent per message, to every
// authorised connection. A ping every 20 s drops connections that went away.
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer } from 'ws'
import type { WebSocket } from 'ws'
import type { LabEvent } from '../../shared/api/lab-events'

export class EventSocket {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 })
  private readonly alive = new WeakMap<WebSocket, boolean>()
  private readonly timer: NodeJS.Timeout

  constructor() {
    this.wss.on('connection', (ws) => {
      this.alive.set(ws, true)
      ws.on('pong', () => this.alive.set(ws, true))
      ws.on('message', () => undefined) // the channel is one-way; calls go over HTTP
    })
    this.timer = setInterval(() => {
      for (const ws of this.wss.clients) {
        if (!this.alive.get(ws)) ws.terminate()
        else {
          this.alive.set(ws, false)
          ws.ping()
        }
      }
    }, 20_000)
    this.timer.unref()
  }

  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit('connection', ws, req))
  }

  send(e: LabEvent): void {
    const text = JSON.stringify(e)
    for (const ws of this.wss.clients) if (ws.readyState === ws.OPEN) ws.send(text)
  }

  get connections(): number {
    return this.wss.clients.size
  }

  close(): void {
    clearInterval(this.timer)
    for (const ws of this.wss.clients) ws.terminate()
    this.wss.close()
  }
}
