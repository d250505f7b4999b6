import type { Request } from '../block/types'

/** A FIFO of requests without shifting arrays (a growable ring). */
export class RequestRing {
  private buf: (Request | null)[] = new Array<Request | null>(16).fill(null)
  private head = 0
  size = 0

  push(rq: Request): void {
    if (this.size === this.buf.length) {
      const old = this.buf
      this.buf = new Array<Request | null>(old.length * 2).fill(null)
      for (let i = 0; i < this.size; i++) this.buf[i] = old[(this.head + i) % old.length]
      this.head = 0
    }
    this.buf[(this.head + this.size++) % this.buf.length] = rq
  }

  peek(): Request {
    return this.buf[this.head]!
  }

  /** The `i`th request from the head (0 ≤ i < size). */
  at(i: number): Request {
    return this.buf[(this.head + i) % this.buf.length]!
  }

  shift(): Request {
    const rq = this.buf[this.head]!
    this.buf[this.head] = null
    this.head = (this.head + 1) % this.buf.length
    this.size--
    return rq
  }
}
