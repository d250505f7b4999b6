import type { Handler } from '../sim/engine'
import { Timer } from '../sim/engine'
import type { SlotWaiter } from '../block/queue'
import type { Bio, IoContext } from '../block/types'
import { IOPRIO_NONE } from '../block/types'
import type { SimTime } from '../sim/time'
import type { Kernel } from './kernel'
import type { SimFile } from './files'

/** Pages written per file before moving to the next (MAX_WRITEBACK_PAGES, 4 MiB). */
export const MAX_WRITEBACK_PAGES = 1024

/**
 * The writeback flusher (pdflush in 2.6, the per-device flusher threads later): wakes every
 * `dirty_writeback` interval to write data older than `dirty_expire` (kupdate), and runs whenever
 * dirty memory is above the background threshold until it is below. It writes files oldest-dirtied
 * first, up to 4 MiB each before moving on, from each file's cyclic writeback position. It submits
 * like any task and sleeps when the queue has no free write request.
 */
export class Flusher implements Handler, SlotWaiter {
  readonly ctx: IoContext = { pid: 2, name: 'flush', ioClass: IOPRIO_NONE, ioLevel: 4, exited: false }
  private readonly periodic: Timer
  private working = false
  private blocked = false
  private kupdate = false
  private readonly bios: Bio[] = []
  private idx = 0
  /** Pages this flusher has written. */
  pagesWritten = 0

  constructor(private readonly k: Kernel) {
    this.periodic = new Timer(k.engine, this, 0)
  }

  start(): void {
    this.periodic.set(this.k.engine.now + this.k.h.writebackInterval)
  }

  /** Called after a write dirtied pages: start background writeback above the threshold. */
  maybeBackground(): void {
    if (!this.working && this.k.cache.dirty > this.k.backgroundThresh) {
      this.kupdate = false
      this.working = true
      this.work()
    }
  }

  onEvent(): void {
    this.periodic.fired()
    this.periodic.set(this.k.engine.now + this.k.h.writebackInterval)
    if (!this.working) {
      this.kupdate = true
      this.working = true
      this.work()
    }
  }

  slotGranted(): void {
    this.blocked = false
    if (this.submit()) this.work()
  }

  private goalReached(now: SimTime): boolean {
    const c = this.k.cache
    if (c.dirty > this.k.backgroundThresh) return false
    if (!this.kupdate) return true
    return this.oldestDirty(now - this.k.h.dirtyExpire) === null
  }

  private work(): void {
    const now = this.k.engine.now
    while (!this.goalReached(now)) {
      const n = this.collect(
        MAX_WRITEBACK_PAGES,
        this.ctx,
        this.bios,
        this.k.cache.dirty > this.k.backgroundThresh ? Infinity : now - this.k.h.dirtyExpire,
      )
      if (n === 0) break
      this.pagesWritten += n
      if (!this.submit()) return
    }
    this.working = false
  }

  private submit(): boolean {
    const q = this.k.queue
    while (this.idx < this.bios.length) {
      if (!q.submit(this.bios[this.idx++], this)) {
        this.blocked = true
        return false
      }
    }
    this.bios.length = 0
    this.idx = 0
    return true
  }

  /** The dirty file dirtied longest ago (no later than `before`), or null. */
  oldestDirty(before: number): SimFile | null {
    let best: SimFile | null = null
    for (const f of this.k.files) {
      if (
        f.dirty > 0 &&
        f.dirtiedWhen >= 0 &&
        f.dirtiedWhen <= before &&
        (best === null || f.dirtiedWhen < best.dirtiedWhen)
      )
        best = f
    }
    return best
  }

  /**
   * Take up to `max` dirty pages, oldest-dirtied files first (each up to MAX_WRITEBACK_PAGES per
   * visit), mark them under writeback and build bios for `ctx` into `out`. Used by the flusher and
   * by writers that write back themselves when throttled. Returns the pages taken.
   */
  collect(max: number, ctx: IoContext, out: Bio[], before = Infinity): number {
    let taken = 0
    const seen = new Set<SimFile>()
    while (taken < max) {
      const f = this.oldestDirty(before)
      if (f === null || seen.has(f)) break
      seen.add(f)
      const n = this.k.cache.writebackPages(f, Math.min(max - taken, MAX_WRITEBACK_PAGES), false, ctx, out)
      taken += n
      if (f.dirty > 0) {
        // Requeue behind files dirtied later: its remaining pages wait for the next visit.
        f.dirtiedWhen = Math.max(f.dirtiedWhen, this.k.engine.now)
      }
    }
    return taken
  }

  get isBlocked(): boolean {
    return this.blocked
  }
}
