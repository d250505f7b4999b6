import type { BlockQueue } from '../block/queue'
import type { Bio, BioOwner, IoContext } from '../block/types'
import { READ, WRITE } from '../block/types'
import type { SimTime } from '../sim/time'
import type { SimFile } from './files'
import { SECTORS_PER_PAGE } from './files'
import type { PageCache } from './pagecache'

// Page states of anonymous memory, one byte per page.
const A_NONE = 0
const A_RESIDENT = 1
const A_SWAPPED = 2
/** Being read back from swap. */
const A_IN = 3
/** Being written to swap: still in memory until the write completes. */
const A_OUT = 4
/** Flag: accessed since reclaim last looked (second chance). */
const A_REF = 0x10
/** Flag: written since it was last read from swap (its swap copy is stale). */
const A_DIRTY = 0x20
const STATE = 0x0f

/** Pages swapped out together (SWAP_CLUSTER_MAX). */
export const SWAP_CLUSTER = 32
/** Pages read around a faulting one (2^page-cluster, page-cluster = 3). */
export const SWAP_READAHEAD = 8

/** One process's anonymous memory: a state byte and a swap slot per page. */
export class AnonSpace {
  state = new Uint8Array(256)
  slot = new Int32Array(256).fill(-1)

  constructor(readonly id: number) {}

  ensure(pages: number): void {
    if (pages <= this.state.length) return
    let n = this.state.length
    while (n < pages) n *= 2
    const s = new Uint8Array(n)
    s.set(this.state)
    const sl = new Int32Array(n).fill(-1)
    sl.set(this.slot)
    this.state = s
    this.slot = sl
  }
}

export type FaultResult = 'ready' | 'wait'

/**
 * Anonymous memory and swap. Processes' pages share the machine's memory with the page cache;
 * when a page is needed and none is free, clean cache pages go first, then anonymous pages are
 * written to the swap area in clusters (CLOCK with a second chance picks them). A fault on a
 * swapped page reads it back with its neighbours in swap (swap read-ahead). Reclaim is direct:
 * the faulting process starts it and waits (no kswapd), which is where the time goes under
 * memory pressure.
 */
export class AnonMemory implements BioOwner {
  /** Pages allocated to anonymous memory (resident, or in flight either way). */
  resident = 0
  /** Pages being written to swap now. */
  outInFlight = 0
  swappedIn = 0
  swappedOut = 0
  private readonly spaces: AnonSpace[] = []
  /** The reclaim ring and the swap map, allocated on the first touch of anonymous memory. */
  private ringSpace = new Int32Array(0)
  private ringPage = new Int32Array(0)
  private head = 0
  private count = 0
  private slotSpace = new Int32Array(0)
  private slotPage = new Int32Array(0)
  private cursor = 0
  private freeSlots: number
  private readonly bios: Bio[] = []
  /** Called when pages arrive from swap or memory is freed: faulting tasks re-check. */
  onProgress: (() => void) | null = null

  constructor(
    private readonly cache: PageCache,
    private readonly queue: BlockQueue,
    private readonly swap: SimFile | null,
    private readonly ctx: IoContext,
  ) {
    this.freeSlots = swap ? swap.pageCount : 0
  }

  private allocate(): void {
    const cap = this.cache.capacity + 1
    this.ringSpace = new Int32Array(cap)
    this.ringPage = new Int32Array(cap)
    const slots = this.swap ? this.swap.pageCount : 0
    this.slotSpace = new Int32Array(slots).fill(-1)
    this.slotPage = new Int32Array(slots)
  }

  space(): AnonSpace {
    const s = new AnonSpace(this.spaces.length)
    this.spaces.push(s)
    return s
  }

  private get free(): number {
    return this.cache.capacity - this.cache.cached - this.resident
  }

  /**
   * Touch page `p` of a space: 'ready' if it is in memory (now), 'wait' if the caller must wait
   * for swap I/O or free memory (call again after `onProgress`). Throws when memory and swap are
   * both exhausted (the kernel's OOM killer).
   */
  touch(sp: AnonSpace, p: number, write: boolean): FaultResult {
    if (this.ringSpace.length === 0) this.allocate()
    sp.ensure(p + 1)
    const s = sp.state[p]
    const st = s & STATE
    if (st === A_RESIDENT || st === A_OUT) {
      sp.state[p] = s | A_REF | (write ? A_DIRTY : 0)
      return 'ready'
    }
    if (st === A_IN) return 'wait'
    if (!this.room(st === A_SWAPPED ? SWAP_READAHEAD : 1)) return 'wait'
    if (st === A_NONE) {
      sp.state[p] = A_RESIDENT | A_REF | A_DIRTY
      this.addResident(sp.id, p)
      return 'ready'
    }
    this.swapIn(sp, p)
    return 'wait'
  }

  /** Is there room for `n` pages? If not, reclaim: clean cache pages, then start swapping out. */
  private room(n: number): boolean {
    if (this.free >= n) return true
    this.cache.reclaimClean(n - this.free)
    if (this.free >= n) return true
    if (this.outInFlight < SWAP_CLUSTER) this.swapOut(SWAP_CLUSTER)
    if (this.free >= 1 && this.outInFlight === 0 && n > 1) return true // read-ahead shrinks to what fits
    return false
  }

  private addResident(space: number, p: number): void {
    this.resident++
    this.cache.anonPages = this.resident
    const len = this.ringSpace.length
    if (this.count >= len) return
    const j = (this.head + this.count) % len
    this.ringSpace[j] = space
    this.ringPage[j] = p
    this.count++
  }

  /** Pick up to `n` victims by CLOCK and write the dirty ones to swap, clustered. */
  private swapOut(n: number): void {
    if (!this.swap) throw new Error(this.oom())
    let picked = 0
    let scanned = 0
    const limit = 2 * this.count
    let run = -1
    let runLen = 0
    const flush = (): void => {
      if (runLen > 0) this.writeSlots(run, runLen)
      run = -1
      runLen = 0
    }
    while (picked < n && this.count > 0 && scanned < limit) {
      const i = this.head
      const sp = this.spaces[this.ringSpace[i]]
      const p = this.ringPage[i]
      this.head = (i + 1) % this.ringSpace.length
      this.count--
      scanned++
      const s = sp.state[p]
      if ((s & STATE) !== A_RESIDENT || s & A_REF) {
        if ((s & STATE) === A_RESIDENT || (s & STATE) === A_OUT || (s & STATE) === A_IN) {
          sp.state[p] = s & ~A_REF
          this.requeue(sp.id, p)
        }
        continue
      }
      picked++
      if (!(s & A_DIRTY) && sp.slot[p] >= 0) {
        // its copy in swap is still good: drop it from memory at once
        sp.state[p] = A_SWAPPED
        this.dropResident()
        continue
      }
      const slot = this.allocSlot(sp.id, p)
      if (slot < 0) throw new Error(this.oom())
      if (sp.slot[p] >= 0 && sp.slot[p] !== slot) this.freeSlot(sp.slot[p])
      sp.slot[p] = slot
      sp.state[p] = A_OUT
      this.outInFlight++
      if (run >= 0 && slot === run + runLen) runLen++
      else {
        flush()
        run = slot
        runLen = 1
      }
    }
    flush()
    this.submit()
  }

  private requeue(space: number, p: number): void {
    const len = this.ringSpace.length
    if (this.count >= len) return
    const j = (this.head + this.count) % len
    this.ringSpace[j] = space
    this.ringPage[j] = p
    this.count++
  }

  private dropResident(): void {
    this.resident--
    this.cache.anonPages = this.resident
  }

  /** Next-fit slot allocation: consecutive victims get consecutive slots, so writes merge. */
  private allocSlot(space: number, p: number): number {
    const n = this.slotSpace.length
    if (this.freeSlots === 0) return -1
    for (let k = 0; k < n; k++) {
      const s = (this.cursor + k) % n
      if (this.slotSpace[s] < 0) {
        this.slotSpace[s] = space
        this.slotPage[s] = p
        this.cursor = (s + 1) % n
        this.freeSlots--
        return s
      }
    }
    return -1
  }

  private freeSlot(s: number): void {
    this.slotSpace[s] = -1
    this.freeSlots++
  }

  private writeSlots(first: number, n: number): void {
    this.buildBios(first, n, WRITE)
  }

  /** Read the faulting page and its swapped neighbours in swap (aligned cluster of 8 slots). */
  private swapIn(sp: AnonSpace, p: number): void {
    const slot = sp.slot[p]
    const base = slot - (slot % SWAP_READAHEAD)
    let run = -1
    let runLen = 0
    for (let s = base; s < Math.min(base + SWAP_READAHEAD, this.slotSpace.length); s++) {
      const owner = this.slotSpace[s]
      const page = this.slotPage[s]
      const ok =
        owner >= 0 &&
        (s === slot ||
          (this.free > 0 &&
            (this.spaces[owner].state[page] & STATE) === A_SWAPPED &&
            this.spaces[owner].slot[page] === s))
      if (ok && (s === slot || this.free > 0)) {
        const o = this.spaces[owner]
        o.state[page] = A_IN
        this.addResident(owner, page)
        if (run >= 0 && s === run + runLen) runLen++
        else {
          if (runLen > 0) this.buildBios(run, runLen, READ)
          run = s
          runLen = 1
        }
      } else if (runLen > 0) {
        this.buildBios(run, runLen, READ)
        run = -1
        runLen = 0
      }
    }
    if (runLen > 0) this.buildBios(run, runLen, READ)
    this.submit()
  }

  private buildBios(first: number, n: number, op: 0 | 1): void {
    const q = this.queue
    const swap = this.swap!
    let s = first
    while (s < first + n) {
      const len = Math.min(first + n - s, Math.floor(q.maxSectors / SECTORS_PER_PAGE))
      this.bios.push(
        q.makeBio(
          swap.map(s * SECTORS_PER_PAGE),
          len * SECTORS_PER_PAGE,
          op,
          op === READ,
          this.ctx,
          this,
          null,
          s,
        ),
      )
      s += len
    }
  }

  /** Swap I/O is submitted by the kernel on behalf of the faulting task; a full queue just holds it. */
  private submit(): void {
    for (const b of this.bios) this.queue.submit(b, this)
    this.bios.length = 0
  }

  slotGranted(): void {}

  bioDone(bio: Bio, _now: SimTime): void {
    const first = bio.tag
    const n = bio.nsect / SECTORS_PER_PAGE
    for (let s = first; s < first + n; s++) {
      const owner = this.slotSpace[s]
      if (owner < 0) continue
      const sp = this.spaces[owner]
      const p = this.slotPage[s]
      const st = sp.state[p] & STATE
      if (bio.op === READ && st === A_IN) {
        sp.state[p] = A_RESIDENT // clean: its copy in swap stays valid
        this.swappedIn++
      } else if (bio.op === WRITE && st === A_OUT) {
        this.outInFlight--
        if (sp.state[p] & A_REF) {
          sp.state[p] = A_RESIDENT | A_REF | (sp.state[p] & A_DIRTY) // touched while written: keep it
          this.requeue(sp.id, p)
        } else {
          sp.state[p] = A_SWAPPED
          this.dropResident()
          this.swappedOut++
        }
      }
    }
    this.onProgress?.()
  }

  private oom(): string {
    return (
      `out of memory: processes need more anonymous memory than the host's memory and swap hold ` +
      `(${Math.round((this.resident * 4) / 1024)} MiB resident, swap ${this.swap ? Math.round(this.swap.size / 2 ** 20) : 0} MiB); ` +
      `raise host.overrides.memoryMiB or swapMiB`
    )
  }
}
