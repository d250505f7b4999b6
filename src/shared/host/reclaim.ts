import type { Bio, IoContext } from '../block/types'
import type { AnonMemory } from './anon'
import type { PageCache } from './pagecache'
import type { ReclaimBalance, VmEra, Watermarks } from './vm-era'

/** Pages one reclaim step aims for, and the batch it scans (SWAP_CLUSTER_MAX). */
export const SWAP_CLUSTER_MAX = 32

/** What one scan did; the scanners add to it. */
export interface ScanResult {
  scanned: number
  freed: number
  /** Writes started (dirty file pages paged out, anonymous pages written to swap). */
  writes: number
}

export const emptyScan = (): ScanResult => ({ scanned: 0, freed: 0, writes: 0 })

/** A process that allocates memory and may have to reclaim it itself (direct reclaim). */
export interface Allocator extends IoContext {
  /** Scan priority of its direct reclaim in progress (the era's DEF_PRIORITY when none). */
  reclaimPriority: number
  /** CPU time (ns) owed for reclaim work, charged with its next burst. */
  touchPending: number
  /** Bios it will submit (swap-out and page-out writes of its direct reclaim, swap-in reads). */
  readonly bios: Bio[]
}

/**
 * Page reclaim shared by kswapd and direct reclaim: the watermarks, the choice of what to scan
 * (the page cache's LRU, processes' anonymous memory, or both, by the era's balance rule) and the
 * scan itself. One batch scans up to SWAP_CLUSTER_MAX pages: clean unreferenced pages are freed
 * at once, dirty ones are written (page-out from the LRU tail, swap-out clustered) and freed when
 * the write completes; referenced pages get a second chance.
 */
export class Reclaim {
  /** zone->prev_priority: the priority the last reclaim run ended at (distress = 100 >> it). */
  prevPriority: number
  /** Fractional share of a batch owed to the anonymous LRU (keeps the split exact over batches). */
  private anonCredit = 0
  /** 2.4: mapped pages met on the LRU in the current pass (swap_out past max_mapped). */
  mappedMet = 0
  /** Called when an allocation leaves free memory below the low watermark (wakeup_kswapd). */
  onLow: (() => void) | null = null
  /** Pages scanned, freed and written by reclaim (all reclaimers). */
  readonly totals = emptyScan()
  directStalls = 0

  constructor(
    readonly era: VmEra,
    readonly wm: Watermarks,
    private readonly swappiness: number,
    /** CPU time to scan one page, ns. */
    readonly scanCost: number,
    private readonly cache: PageCache,
    private readonly anon: AnonMemory,
  ) {
    this.prevPriority = era.defPriority
  }

  get free(): number {
    return this.cache.capacity - this.cache.cached - this.anon.resident
  }

  /** The inactive list's length: shrink_zone keeps the active list about 2/3 of the LRU. */
  get nrInactive(): number {
    return Math.floor((this.cache.cached + this.anon.resident) / 3)
  }

  /** Pages one pass at `priority` scans when it wants `toReclaim` (balance_pgdat, shrink_caches). */
  passLength(priority: number, toReclaim: number): number {
    return Math.max(this.era.scanWindow(this.nrInactive, priority), 2 * toReclaim, SWAP_CLUSTER_MAX)
  }

  /**
   * An allocation of `n` pages by `a`: true if it may proceed. Below the low watermark kswapd is
   * woken; below the min watermark the allocator reclaims itself (one batch at its priority,
   * charged to its CPU) and, if that was not enough, must wait and try again.
   */
  allocate(n: number, a: Allocator): boolean {
    const after = this.free - n
    if (after < this.wm.low) this.onLow?.()
    if (after >= this.wm.min && (this.era.kswapd || after >= 0)) return true
    if (this.era.balance === 'cache-first') return this.cacheFirst(n, a)
    // try_to_free_pages: priority counts down from DEF_PRIORITY while reclaim falls short
    const p = a.reclaimPriority
    const r = emptyScan()
    const len = this.passLength(p, SWAP_CLUSTER_MAX)
    for (let done = 0; done < len && r.freed < SWAP_CLUSTER_MAX;) {
      const before = r.scanned
      this.batch(
        p,
        Math.min(SWAP_CLUSTER_MAX, len - done),
        SWAP_CLUSTER_MAX,
        this.era.directWritesFile,
        a,
        a.bios,
        r,
      )
      if (r.scanned === before) break
      done += r.scanned - before
    }
    a.touchPending += r.scanned * this.scanCost
    this.directStalls++
    if (this.free - n >= this.wm.min) {
      this.prevPriority = p
      a.reclaimPriority = this.era.defPriority
      return true
    }
    if (r.freed < SWAP_CLUSTER_MAX) {
      if (p > 0) a.reclaimPriority = p - 1
      else {
        this.prevPriority = 0
        a.reclaimPriority = this.era.defPriority
        if (r.freed === 0 && r.writes === 0 && !this.ioInFlight()) {
          if (this.free - n >= 0) return true // the last reserves
          throw new Error(this.anon.oom())
        }
      }
    }
    return false
  }

  /** Writes that will free memory when they complete. */
  ioInFlight(): boolean {
    return this.cache.writeback > 0 || this.anon.outInFlight > 0 || this.anon.inInFlight > 0
  }

  /** The lab before kswapd: clean cache pages first, then swap out a cluster. */
  private cacheFirst(n: number, a: Allocator): boolean {
    const free = (): number => this.free
    if (free() >= n) return true
    this.cache.reclaimClean(n - free())
    if (free() >= n) return true
    if (this.anon.outInFlight < SWAP_CLUSTER_MAX) this.anon.swapOut(SWAP_CLUSTER_MAX, a, a.bios)
    return free() >= 1 && this.anon.outInFlight === 0 && n > 1
  }

  /**
   * One batch: scan up to `n` pages at `priority`, split between the page cache and anonymous
   * memory by the era's rule; dirty file pages are written if `writeFile`. Bios go to `out`
   * for `ctx` to submit.
   */
  batch(
    priority: number,
    n: number,
    toReclaim: number,
    writeFile: boolean,
    ctx: IoContext,
    out: Bio[],
    r: ScanResult,
  ): void {
    const s0 = r.scanned
    const f0 = r.freed
    const w0 = r.writes
    const share = this.anonShare(this.era.balance)
    const owed = this.anonCredit + n * share
    const anonN = Math.min(n, Math.floor(owed))
    this.anonCredit = owed - anonN
    if (this.era.balance === 'mapped-count') {
      // 2.4: anonymous pages sit on the same LRU; the scan only counts them…
      this.mappedMet += anonN
      r.scanned += anonN
      this.cache.scanTail(n - anonN, writeFile, ctx, out, r)
      const maxMapped = Math.min(
        toReclaim << (10 - priority),
        Math.floor(this.passLength(priority, toReclaim) / 10),
      )
      if (this.mappedMet > maxMapped && this.anon.swapAvailable) {
        // …and past max_mapped, swap_out() walks the page tables and swaps a cluster out
        this.mappedMet = 0
        this.anon.swapOut(SWAP_CLUSTER_MAX, ctx, out, r)
      }
    } else {
      if (anonN > 0) this.anon.scanTail(anonN, ctx, out, r)
      this.cache.scanTail(n - anonN, writeFile, ctx, out, r)
    }
    this.totals.scanned += r.scanned - s0
    this.totals.freed += r.freed - f0
    this.totals.writes += r.writes - w0
  }

  /** The share of a batch that goes to the anonymous LRU. */
  private anonShare(b: ReclaimBalance): number {
    const anon = this.anon.resident
    const file = this.cache.cached
    if (anon === 0 || !this.anon.swapAvailable) return 0
    if (file === 0) return 1
    switch (b) {
      case 'mapped-count':
        return anon / (anon + file)
      case 'swap-tendency': {
        // refill_inactive_zone: mapped pages are deactivated only with enough tendency to swap
        const mappedRatio = Math.floor((anon * 100) / this.cache.capacity)
        const distress = 100 >> this.prevPriority
        const tendency = Math.floor(mappedRatio / 2) + distress + this.swappiness
        return tendency >= 100 ? anon / (anon + file) : 0
      }
      case 'swappiness-split': {
        const a = this.swappiness * anon
        const f = (200 - this.swappiness) * file
        return a / (a + f)
      }
      default:
        return 0
    }
  }
}
