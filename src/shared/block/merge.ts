import type { SimTime } from '../sim/time'
import type { IoScheduler } from '../schedulers/scheduler'
import { SectorHash } from './sector-hash'
import type { Bio, Request } from './types'

/** What the merging needs of its queue. */
export interface MergeHost {
  readonly sched: IoScheduler
  /** The largest request of page-cache pages (a segment each) or of a process's buffers. */
  maxFor(pages: boolean): number
  /** `next` was absorbed by the request before it: it leaves the scheduler and its slot is freed. */
  absorbed(next: Request, now: SimTime): void
}

/**
 * Merging bios into queued requests, as the kernel's elevator merge does (block/blk-merge.c,
 * elevator.c elv_merge / elv_attempt_insert_merge): a bio joins a queued request that ends where
 * it starts (a back merge, found through a hash keyed by end sector) or, if the scheduler allows
 * front merges, one that starts where the bio ends; a grown request that now touches its
 * neighbour absorbs it (the survivor keeps the earlier FIFO deadline). Requests never grow past
 * the device's maximum transfer. One entry per key: a colliding request simply is not found, as a
 * missed merge.
 */
export class RequestMerger {
  private readonly backHash = new SectorHash()
  private readonly frontHash = new SectorHash()
  /**
   * The request added last, not yet in the hashes: most leave the scheduler before anything looks
   * them up (a queue run dispatches what its submitter just inserted), and an add followed at once
   * by its remove leaves the hashes as they were — each key maps to the request that took it
   * first, whatever the table's layout — so such a request is never hashed at all. Any other use
   * of the hashes puts it in first, in the order of the calls.
   */
  private pending: Request | null = null

  constructor(private readonly host: MergeHost) {}

  /** Merge `bio` into a queued request if one is adjacent and may take it. */
  tryMerge(bio: Bio, now: SimTime): boolean {
    this.settle()
    const sched = this.host.sched
    const back = this.backHash.get(bio.sector)
    if (
      back !== undefined &&
      back.op === bio.op &&
      back.nsect + bio.nsect <= this.host.maxFor(back.pages) &&
      (sched.allowMerge === undefined || sched.allowMerge(back, bio))
    ) {
      this.unhashEnd(back)
      back.nsect += bio.nsect
      back.bioTail!.next = bio
      back.bioTail = bio
      this.hashEnd(back)
      sched.merged?.(back, false, now, back.sector)
      const nxt = this.frontHash.get(back.end)
      if (nxt !== undefined && this.mergeable(back, nxt)) this.mergeRequests(back, nxt, now)
      return true
    }
    if (!sched.frontMerges) return false
    const front = this.frontHash.get(bio.sector + bio.nsect)
    if (
      front !== undefined &&
      front.op === bio.op &&
      front.nsect + bio.nsect <= this.host.maxFor(front.pages) &&
      (sched.allowMerge === undefined || sched.allowMerge(front, bio))
    ) {
      this.unhashStart(front)
      const oldSector = front.sector
      front.sector = bio.sector
      front.nsect += bio.nsect
      bio.next = front.bioHead
      front.bioHead = bio
      this.hashStart(front)
      sched.merged?.(front, true, now, oldSector)
      const prev = this.backHash.get(front.sector)
      if (prev !== undefined && this.mergeable(prev, front)) this.mergeRequests(prev, front, now)
      return true
    }
    return false
  }

  /** A new request joins the queue: findable by both ends. */
  add(rq: Request): void {
    this.settle()
    this.pending = rq
  }

  /** A request leaves the scheduler (dispatched or parked): no longer takes merges. */
  remove(rq: Request): void {
    if (rq === this.pending) {
      this.pending = null
      return
    }
    this.settle()
    this.unhashStart(rq)
    this.unhashEnd(rq)
  }

  /** The request added last into the hashes (`pending`). */
  private settle(): void {
    const rq = this.pending
    if (rq === null) return
    this.pending = null
    this.hashStart(rq)
    this.hashEnd(rq)
  }

  private mergeable(rq: Request, next: Request): boolean {
    const sched = this.host.sched
    return (
      sched.requestMerges !== false &&
      rq !== next &&
      rq.op === next.op &&
      rq.nsect + next.nsect <= this.host.maxFor(rq.pages) &&
      (sched.allowMerge === undefined || sched.allowMerge(rq, next.bioHead!))
    )
  }

  /** `next` starts where `rq` ends: `rq` absorbs it, keeping the earlier FIFO deadline. */
  private mergeRequests(rq: Request, next: Request, now: SimTime): void {
    this.remove(rq)
    this.remove(next)
    rq.nsect += next.nsect
    rq.bioTail!.next = next.bioHead
    rq.bioTail = next.bioTail
    next.bioHead = next.bioTail = null
    if (next.fifoTime < rq.fifoTime) rq.fifoTime = next.fifoTime
    if (next.queuedAt < rq.queuedAt) rq.queuedAt = next.queuedAt
    if (next.insertedAt < rq.insertedAt) rq.insertedAt = next.insertedAt
    this.add(rq)
    this.host.sched.mergedRequests?.(rq, next, now)
    this.host.absorbed(next, now)
  }

  private hashStart(rq: Request): void {
    this.frontHash.add(rq.sector, rq)
  }
  private hashEnd(rq: Request): void {
    this.backHash.add(rq.sector + rq.nsect, rq)
  }
  private unhashStart(rq: Request): void {
    this.frontHash.remove(rq.sector, rq)
  }
  private unhashEnd(rq: Request): void {
    this.backHash.remove(rq.sector + rq.nsect, rq)
  }
}
