import type { Request } from './types'

/**
 * An intrusive FIFO of requests (through `fifoPrev`/`fifoNext`): O(1) append, head and removal
 * from the middle — what deadline needs when a request leaves by sector order instead.
 */
export class RequestFifo {
  head: Request | null = null
  tail: Request | null = null
  size = 0

  push(rq: Request): void {
    rq.fifoNext = null
    rq.fifoPrev = this.tail
    if (this.tail) this.tail.fifoNext = rq
    else this.head = rq
    this.tail = rq
    this.size++
  }

  remove(rq: Request): void {
    const p = rq.fifoPrev
    const n = rq.fifoNext
    if (p) p.fifoNext = n
    else this.head = n
    if (n) n.fifoPrev = p
    else this.tail = p
    rq.fifoPrev = rq.fifoNext = null
    this.size--
  }

  shift(): Request | null {
    const h = this.head
    if (h) this.remove(h)
    return h
  }

  /** Move `rq` to the position of `at` (the survivor of a merge takes the earlier place). */
  replace(at: Request, rq: Request): void {
    if (at === rq) return
    this.remove(rq)
    rq.fifoPrev = at.fifoPrev
    rq.fifoNext = at.fifoNext
    if (at.fifoPrev) at.fifoPrev.fifoNext = rq
    else this.head = rq
    if (at.fifoNext) at.fifoNext.fifoPrev = rq
    else this.tail = rq
    at.fifoPrev = at.fifoNext = null
  }
}
