// A request body read as it arrives, bounded: refused at once when its Content-Length is over the
// limit, or at the first chunk that goes over it. Then reading stops (the stream is paused and
// left; the connection is closed after the answer), so the rest is never buffered.
import type { IncomingMessage } from 'node:http'

/** Why a body was not read: over the route's limit (413), or no heavy slot free (503). */
export class BodyRefused extends Error {
  constructor(readonly reason: 'too-large' | 'busy') {
    super(reason === 'too-large' ? 'request body too large' : 'too many large requests at once')
    this.name = 'BodyRefused'
  }
}

/** The client went away before the body ended: there is nobody to answer. */
export class ClientGone extends Error {
  constructor() {
    super('the client closed the connection before the body ended')
    this.name = 'ClientGone'
  }
}

export interface BodyReading {
  /** Most bytes to read. */
  limit: number
  /** Over this many bytes the body is heavy, and `takeHeavy` must say yes before reading on. */
  heavyBytes: number
  takeHeavy(): boolean
  /** Told the size of each chunk kept (the server counts the bytes it holds). */
  onBytes(n: number): void
  /** Called once the declared length is acceptable, before the first byte is read (100 Continue). */
  proceed?(): void
}

/** The Content-Length the request declares (Node's parser refuses one that is not a number). */
export function declaredLength(req: IncomingMessage): number | undefined {
  const v = req.headers['content-length']
  return v === undefined ? undefined : Number(v)
}

export function readBody(req: IncomingMessage, o: BodyReading): Promise<Buffer> {
  const declared = declaredLength(req)
  if (declared !== undefined && declared > o.limit) return Promise.reject(new BodyRefused('too-large'))
  let heavy = declared !== undefined && declared > o.heavyBytes
  if (heavy && !o.takeHeavy()) return Promise.reject(new BodyRefused('busy'))
  o.proceed?.()
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let n = 0
    const leave = (): void => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('close', onClose)
    }
    const stop = (e: Error): void => {
      leave()
      req.pause()
      reject(e)
    }
    const onData = (c: Buffer): void => {
      n += c.length
      if (n > o.limit) return stop(new BodyRefused('too-large'))
      if (!heavy && n > o.heavyBytes) {
        if (!o.takeHeavy()) return stop(new BodyRefused('busy'))
        heavy = true
      }
      chunks.push(c)
      o.onBytes(c.length)
    }
    const onEnd = (): void => {
      leave()
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, n))
    }
    const onClose = (): void => stop(new ClientGone())
    req.on('data', onData)
    req.once('end', onEnd)
    req.once('close', onClose)
  })
}
