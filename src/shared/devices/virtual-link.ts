import { SECTOR, WRITE, type Request } from '../block/types'
import type { SimTime } from '../sim/time'
import type { VirtualConfig } from './virtual-params'
import { V_LINK, V_LINK_WAIT } from './virtual-parts'
import type { PartMarks } from './virtual-parts'

/**
 * A virtual device's one link, shared by every lane (virtual.ts): a request's data beyond its
 * first 4 KiB crosses it after the request's service, one request's after another's. With
 * `sharedLanes` — one line to one backing store — a small request is answered only once the data
 * of the large ones before it has crossed.
 */
export class VirtualLink {
  /** When the link is next free. */
  private free: SimTime = 0
  /** The stall time the link's schedule has been moved by. */
  private moved = 0

  constructor(
    private readonly cfg: VirtualConfig,
    private readonly marks: PartMarks,
  ) {}

  /** A request's data beyond 4 KiB on the link, ns: page-cache writes at their own rate (cacheWriteMBps). */
  extraNs(rq: Request): number {
    const bytes = Math.max(0, rq.nsect * SECTOR - 4096)
    return bytes * (rq.op === WRITE && rq.pages ? this.cfg.cacheWriteNsPerByte : this.cfg.nsPerByte[rq.op])
  }

  /** Its data beyond 4 KiB (`extra` ns on the link) after its service, which ends at `done`. */
  after(rq: Request, extra: number, done: number): number {
    if (extra > 0) {
      const linkStart = Math.max(this.free, done)
      this.free = linkStart + extra
      if (this.marks.wantsParts) {
        this.marks.mark(rq, V_LINK_WAIT, linkStart)
        this.marks.mark(rq, V_LINK, this.free)
      }
      return this.free
    }
    if (!this.cfg.sharedLanes) return done
    // one line to one backing store: a small request is answered only after the data of the
    // requests before it has crossed (a read behind a large write waits for its transfer)
    if (this.free > done && this.marks.wantsParts) this.marks.mark(rq, V_LINK_WAIT, this.free)
    return Math.max(done, this.free)
  }

  /** The host's stalls came to `total` by `now`: a link still busy now was busy through those since the last. */
  stalled(now: SimTime, total: number): void {
    if (this.free > now) this.free += total - this.moved
    this.moved = total
  }
}
