// A browser host on 127.0.0.1 for the server tests, and raw HTTP over a socket (fetch follows
// redirects, forbids setting Host or Origin, and hides how and when the server closed).
import { mkdirSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { connect } from 'node:net'
import type { Socket } from 'node:net'
import { join } from 'node:path'
import { startLabServer } from '../../src/main/server/lab-server'
import type { LabServer, LabServerOptions } from '../../src/main/server/lab-server'
import type { LabService } from '../../src/main/services/lab-service'
import { newService, tempDir } from '../api/fixtures'

export interface Host {
  server: LabServer
  lab: LabService
  close(): Promise<void>
}

/** A host serving a one-page renderer; `o` overrides the server's options. */
export async function startHost(o: Partial<LabServerOptions> = {}): Promise<Host> {
  const renderer = join(tempDir('iosched-renderer-'), 'renderer')
  mkdirSync(join(renderer, 'assets'), { recursive: true })
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>IOSched Lab</title>')
  const lab = newService()
  const server = await startLabServer({ lab, rendererDir: renderer, ...o })
  return {
    server,
    lab,
    close: async () => {
      lab.dispose()
      await server.close()
    },
  }
}

export interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** One request with node:http (any headers, no redirects followed). */
export function send(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let text = ''
      res.on('data', (c) => (text += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** A raw connection: what the server wrote, and whether (and when) it closed the socket. */
export interface RawConnection {
  socket: Socket
  /** Everything received so far. */
  received(): string
  /** Resolves when the server has closed the connection (end or reset). */
  closed: Promise<void>
  isClosed(): boolean
}

export function openRaw(port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let text = ''
    let done = false
    const closed = new Promise<void>((r) => {
      socket.on('close', () => {
        done = true
        r()
      })
    })
    socket.on('data', (d) => (text += d.toString('latin1')))
    socket.on('error', () => undefined) // a reset is a close here
    socket.once('connect', () => resolve({ socket, received: () => text, closed, isClosed: () => done }))
    socket.once('error', reject)
  })
}

/** Wait until `test` holds, checking every few ms; fails after `ms`. */
export async function until(test: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}
