import type { BlockQueue } from '../block/queue'
import type { Bio, BioOwner, IoContext } from '../block/types'
import { READ, WRITE } from '../block/types'
import type { SimTime } from '../sim/time'
import type { SimFile } from './files'
import { SECTORS_PER_PAGE } from './files'
import type { PageCache } from './pagecache'
import type { Allocator, Reclaim, ScanResult } from './reclaim'
import { emptyScan } from './reclaim'

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

/** One process's anonymous memory: a state byte and a swap slot per page. */
export class AnonSpace {
  state = new Uint8Array(256)
  slot = new Int32Array(256).fill(-1)
  /** Its process exited: pages still under I/O are freed when the I/O completes. */
  dead = false
  /** Pages of it under swap I/O now. */
  inflight = 0

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
 * Anonymous memory and swap. Processes' pages share the machine's memory with the page cache.
 * A page fault allocates through `Reclaim` (which wakes kswapd below the low watermark and makes
 * the faulting process reclaim itself below the min one). Reclaim picks anonymous victims by
 * CLOCK with a second chance and writes them to the swap area in clusters of consecutive slots;
 * a page is freed when its write completes, unless it was touched meanwhile. A fault on a
 * swapped page reads it back with its neighbours in swap (swap read-around of 2^page_cluster
 * slots), as a read of the faulting process. A process's memory is freed when it exits.
 */
export class AnonMemory implements BioOwner {
  /** Pages allocated to anonymous memory (resident, or in flight either way). */
  resident = 0
  /** Pages being written to swap now. */
  outInFlight = 0
  /** Pages being read from swap now. */
  inInFlight = 0
  /** Set by the kernel once reclaim is built. */
  reclaim!: Reclaim
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
  /** Called when pages arrive from swap or memory is freed: faulting tasks re-check. */
  onProgress: (() => void) | null = null
  /** Called when a swap write completes (a write completion ends congestion waits). */
  onWriteDone: (() => void) | null = null

  constructor(
    private readonly cache: PageCache,
    private readonly queue: BlockQueue,
    readonly swap: SimFile | null,
    /** Swap read-around: slots read around a faulting one (2^page_cluster). */
    readonly readAround: number,
  ) {
    this.freeSlots = swap ? swap.pageCount : 0
  }

  get swapAvailable(): boolean {
    return this.swap !== null && this.freeSlots > 0
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
   * Touch page `p` of a space for `a`: 'ready' if it is in memory (now), 'wait' if the caller must
   * wait for swap I/O or free memory (call again after `onProgress`); bios to submit (a swap-in,
   * the writes of its own reclaim) are left in `a.bios`. Throws when memory and swap are both
   * exhausted (the kernel's OOM killer).
   */
  touch(sp: AnonSpace, p: number, write: boolean, a: Allocator): FaultResult {
    if (this.ringSpace.length === 0) this.allocate()
    sp.ensure(p + 1)
    const s = sp.state[p]
    const st = s & STATE
    if (st === A_RESIDENT || st === A_OUT) {
      sp.state[p] = s | A_REF | (write ? A_DIRTY : 0)
      return 'ready'
    }
    if (st === A_IN) return 'wait'
    const direct = !this.reclaim.era.kswapd
    if (!this.reclaim.allocate(direct && st === A_SWAPPED ? this.readAround : 1, a)) return 'wait'
    if (st === A_NONE) {
      sp.state[p] = A_RESIDENT | A_REF | A_DIRTY
      this.addResident(sp.id, p)
      return 'ready'
    }
    this.swapIn(sp, p, a, a.bios)
    return 'wait'
  }

  /** The process owning `sp` exited: its pages and swap slots are freed (those under I/O when it completes). */
  release(sp: AnonSpace): void {
    if (sp.dead) return
    sp.dead = true
    const n = sp.state.length
    for (let p = 0; p < n; p++) {
      const st = sp.state[p] & STATE
      if (st === A_IN || st === A_OUT) continue
      if (st === A_RESIDENT) this.dropResident()
      if (sp.slot[p] >= 0) this.freeSlot(sp.slot[p])
      sp.state[p] = A_NONE
      sp.slot[p] = -1
    }
    this.forget(sp)
    this.onProgress?.()
  }

  /** A dead space with nothing under I/O is forgotten (its arrays go). */
  private forget(sp: AnonSpace): void {
    if (sp.dead && sp.inflight === 0) {
      sp.state = new Uint8Array(0)
      sp.slot = new Int32Array(0)
    }
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

  /** swap_out: pick up to `n` victims by CLOCK (scanning at most twice the ring) and write them. */
  swapOut(n: number, ctx: IoContext, out: Bio[], r: ScanResult = emptyScan()): void {
    if (!this.swap) throw new Error(this.oom())
    this.scan(2 * this.count, n, ctx, out, r)
  }

  /** Reclaim's scan of the anonymous LRU: `n` entries, any number of victims. */
  scanTail(n: number, ctx: IoContext, out: Bio[], r: ScanResult): void {
    if (!this.swap) return
    this.scan(n, n, ctx, out, r)
  }

  /**
   * CLOCK over the ring: scan up to `limit` entries for up to `n` victims. A referenced page gets a
   * second chance; a clean page whose swap copy is still good is freed at once; the others are
   * written to consecutive swap slots (bios for `ctx` into `out`) and freed when written.
   */
  private scan(limit: number, n: number, ctx: IoContext, out: Bio[], r: ScanResult): void {
    let picked = 0
    let scanned = 0
    let run = -1
    let runLen = 0
    const flush = (): void => {
      if (runLen > 0) this.buildBios(run, runLen, WRITE, ctx, out)
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
      if (sp.dead) continue
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
        r.freed++
        continue
      }
      const slot = this.allocSlot(sp.id, p)
      if (slot < 0) throw new Error(this.oom())
      if (sp.slot[p] >= 0 && sp.slot[p] !== slot) this.freeSlot(sp.slot[p])
      sp.slot[p] = slot
      sp.state[p] = A_OUT
      sp.inflight++
      this.outInFlight++
      r.writes++
      if (run >= 0 && slot === run + runLen) runLen++
      else {
        flush()
        run = slot
        runLen = 1
      }
    }
    flush()
    r.scanned += scanned
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

  /**
   * Read the faulting page and its swapped neighbours in swap (the aligned cluster of
   * `readAround` slots, valid_swaphandles), as reads of `ctx`; neighbours only while memory is
   * above the min watermark (they are read without reclaiming for them).
   */
  private swapIn(sp: AnonSpace, p: number, ctx: IoContext, out: Bio[]): void {
    const slot = sp.slot[p]
    const base = slot - (slot % this.readAround)
    const floor = this.reclaim.wm.min
    let run = -1
    let runLen = 0
    for (let s = base; s < Math.min(base + this.readAround, this.slotSpace.length); s++) {
      const owner = this.slotSpace[s]
      const page = this.slotPage[s]
      const o = owner >= 0 ? this.spaces[owner] : null
      const ok =
        o !== null &&
        (s === slot ||
          (this.free > floor && !o.dead && (o.state[page] & STATE) === A_SWAPPED && o.slot[page] === s))
      if (ok) {
        o.state[page] = A_IN
        o.inflight++
        this.inInFlight++
        this.addResident(owner, page)
        if (run >= 0 && s === run + runLen) runLen++
        else {
          if (runLen > 0) this.buildBios(run, runLen, READ, ctx, out)
          run = s
          runLen = 1
        }
      } else if (runLen > 0) {
        this.buildBios(run, runLen, READ, ctx, out)
        run = -1
        runLen = 0
      }
    }
    if (runLen > 0) this.buildBios(run, runLen, READ, ctx, out)
    // each page read around is an allocation of its own: below low it wakes kswapd
    if (this.free < this.reclaim.wm.low) this.reclaim.onLow?.()
  }

  private buildBios(first: number, n: number, op: 0 | 1, ctx: IoContext, out: Bio[]): void {
    const q = this.queue
    const swap = this.swap!
    let s = first
    while (s < first + n) {
      const len = Math.min(first + n - s, Math.floor(q.maxPageSectors / SECTORS_PER_PAGE))
      out.push(
        q.makeBio(
          swap.map(s * SECTORS_PER_PAGE),
          len * SECTORS_PER_PAGE,
          op,
          op === READ,
          ctx,
          this,
          null,
          s,
          true,
        ),
      )
      s += len
    }
  }

  bioDone(bio: Bio, _now: SimTime): void {
    const first = bio.tag
    const n = bio.nsect / SECTORS_PER_PAGE
    for (let s = first; s < first + n; s++) {
      const owner = this.slotSpace[s]
      if (owner < 0) continue
      const sp = this.spaces[owner]
      const p = this.slotPage[s]
      const st = sp.state[p] & STATE
      if (st === A_IN || st === A_OUT) sp.inflight--
      if (st === A_IN) this.inInFlight--
      if (st === A_OUT) this.outInFlight--
      if (sp.dead && (st === A_IN || st === A_OUT)) {
        // its process has exited: the page and its slot go
        sp.state[p] = A_NONE
        this.dropResident()
        this.freeSlot(s)
        this.forget(sp)
      } else if (bio.op === READ && st === A_IN) {
        sp.state[p] = A_RESIDENT // clean: its copy in swap stays valid
        this.swappedIn++
      } else if (bio.op === WRITE && st === A_OUT) {
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
    if (bio.op === WRITE) this.onWriteDone?.()
    this.onProgress?.()
  }

  oom(): string {
    return (
      `out of memory: processes need more anonymous memory than the host's memory and swap hold ` +
      `(${Math.round((this.resident * 4) / 1024)} MiB resident, swap ${this.swap ? Math.round(this.swap.size / 2 ** 20) : 0} MiB); ` +
      `raise host.overrides.memoryMiB or swapMiB`
    )
  }
}
