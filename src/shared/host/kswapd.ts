import type { Handler } from '../sim/engine'
import { Timer } from '../sim/engine'
import type { SimTime } from '../sim/time'
import { MS } from '../sim/time'
import type { SlotWaiter } from '../block/queue'
import type { Bio, IoContext, IoPrioClass } from '../block/types'
import { IOPRIO_NONE } from '../block/types'
import type { CpuTask } from './cpu-params'
import type { Kernel } from './kernel'
import type { Reclaim } from './reclaim'
import { SWAP_CLUSTER_MAX, emptyScan } from './reclaim'

/** blk_congestion_wait(WRITE, HZ/10): the longest kswapd naps between priorities. */
const CONGESTION_WAIT = 100 * MS

const ASLEEP = 0
const RUNNING = 1
/** Napping until a write completes (or the timeout): reclaim fell short at this priority. */
const CONGESTED = 2
/** Waiting for a free request slot to submit its writes. */
const BLOCKED = 3

/**
 * kswapd: the kernel thread that reclaims in the background. Woken when an allocation leaves free
 * memory below the low watermark, it runs balance_pgdat: passes over the LRU from DEF_PRIORITY
 * down, each scanning more, in batches of SWAP_CLUSTER_MAX pages charged to its own CPU time,
 * until free memory is above the high watermark. Its writes (dirty file pages paged out from the
 * LRU tail, anonymous pages swapped out) carry its own I/O context and are asynchronous: it does
 * not wait for them, only naps (congestion wait) when a whole pass fell short. When a run ends it
 * sleeps until the next wake-up, even if memory is still short (the 2.6.0 loop).
 */
export class Kswapd implements CpuTask, IoContext, SlotWaiter, Handler {
  // IoContext
  readonly pid = 3
  readonly name = 'kswapd'
  readonly ioClass: IoPrioClass = IOPRIO_NONE
  readonly ioLevel = 4
  exited = false
  // CpuTask
  readonly weight = 1024
  cpuWork = 0
  cpuTime = 0
  vruntime = 0
  onCpu = -1
  lastCpu = -1
  wantCpu = -1
  vlag = 0

  private state = ASLEEP
  private priority = 0
  /** Pages left to scan in the current pass. */
  private passLeft = 0
  /** CPU owed for the last batch, charged once its writes are submitted. */
  private owed = 0
  private readonly bios: Bio[] = []
  private idx = 0
  private readonly timer: Timer
  private readonly r = emptyScan()
  /** Times woken (pageoutrun), and the runs' totals. */
  wakeups = 0
  naps = 0
  /** Event log for tests: [time, what (wake, nap, sleep, give-up), free pages], when set. */
  log: [SimTime, string, number][] | null = null

  constructor(
    private readonly k: Kernel,
    private readonly rc: Reclaim,
  ) {
    this.timer = new Timer(k.engine, this, 0)
  }

  get running(): boolean {
    return this.state !== ASLEEP
  }

  get pagesScanned(): number {
    return this.r.scanned
  }

  get pagesFreed(): number {
    return this.r.freed
  }

  get writesStarted(): number {
    return this.r.writes
  }

  private note(what: string): void {
    this.log?.push([this.k.engine.now, what, this.rc.free])
  }

  /** wakeup_kswapd: start a balance run unless one is under way. */
  wake(): void {
    if (this.state !== ASLEEP) return
    this.wakeups++
    this.state = RUNNING
    this.priority = this.rc.era.defPriority
    this.startPass()
    this.note('wake')
    this.k.cpu.run(this, 0)
  }

  private startPass(): void {
    this.rc.mappedMet = 0
    this.passLeft = this.rc.passLength(this.priority, Math.max(0, this.rc.wm.high - this.rc.free))
  }

  /** A batch's CPU time has been charged: do the next one, nap, or go to sleep. */
  cpuDone(): void {
    if (this.rc.free >= this.rc.wm.high) return this.sleep('sleep')
    if (this.passLeft <= 0) return this.passDone()
    const toReclaim = this.rc.wm.high - this.rc.free
    const s0 = this.r.scanned
    const n = Math.min(SWAP_CLUSTER_MAX, this.passLeft)
    this.rc.batch(this.priority, n, toReclaim, true, this, this.bios, this.r)
    const scanned = this.r.scanned - s0
    this.passLeft -= Math.max(n, scanned)
    this.owed = Math.max(1, scanned * this.rc.scanCost)
    if (this.submit()) this.k.cpu.run(this, this.owed)
  }

  /** A pass ended short of the high watermark: nap, then try harder; after priority 1, sleep. */
  private passDone(): void {
    this.rc.prevPriority = this.priority
    if (this.priority <= 1) return this.sleep('give-up')
    this.priority--
    this.state = CONGESTED
    this.naps++
    this.note('nap')
    this.k.cpu.release(this)
    this.timer.set(this.k.engine.now + CONGESTION_WAIT)
  }

  /** The run ends: balanced ('sleep'), or every priority tried ('give-up'). */
  private sleep(why: string): void {
    this.rc.prevPriority = this.priority
    this.state = ASLEEP
    this.note(why)
    this.k.cpu.release(this)
  }

  /** A write completed somewhere: a congestion nap ends early. */
  writeDone(): void {
    if (this.state === CONGESTED) this.endNap()
  }

  onEvent(): void {
    this.timer.fired()
    if (this.state === CONGESTED) this.endNap()
  }

  private endNap(): void {
    this.timer.clear()
    this.state = RUNNING
    this.startPass()
    this.k.cpu.run(this, 0)
  }

  private submit(): boolean {
    const q = this.k.queue
    while (this.idx < this.bios.length) {
      if (!q.submit(this.bios[this.idx++], this)) {
        this.state = BLOCKED
        this.k.cpu.release(this)
        return false
      }
    }
    this.bios.length = 0
    this.idx = 0
    return true
  }

  slotGranted(): void {
    this.state = RUNNING
    if (this.submit()) this.k.cpu.run(this, this.owed)
  }
}
