import type { Handler } from '../sim/engine'
import { Timer } from '../sim/engine'
import type { Rng } from '../sim/rng'
import type { SimTime } from '../sim/time'
import type { SlotWaiter } from '../block/queue'
import type { Bio, BioOwner, IoContext, IoPrioClass, Op } from '../block/types'
import { READ, WRITE } from '../block/types'
import { LatencyHistogram } from '../metrics/histogram'
import type { CpuTask } from './cpu'
import { niceWeight } from './cpu'
import type { SimFile } from './files'
import { PAGE } from './files'
import { PG_LOCKED, PG_READAHEAD, PG_UPTODATE } from './pagecache'
import type { Program, Sys } from './program'
import { RaState, ondemand } from './readahead'
import type { AnonSpace } from './anon'
import type { Kernel } from './kernel'

// Continuations: what the task does when it next holds the CPU.
const K_STEP = 0
const K_READ = 1
const K_WRITE = 2
const K_BALANCE = 3
const K_DIRECT = 4
const K_OP_DONE = 5
const K_FSYNC = 6
const K_AIO = 7
const K_AIO_WAIT = 8
const K_SUBMIT = 9
const K_EXITED = 10
const K_DIRECT_WAIT = 11
const K_DIRECT_NEXT = 12
const K_FSYNC_WAIT = 13
const K_SPAWN = 14
const K_WAIT_CHILD = 15
const K_TOUCH = 16

const TASK_NEW = 0
const TASK_RUN = 1
const TASK_BLOCKED = 2
const TASK_DONE = 3

/** One asynchronous I/O in flight. */
class AioSlot {
  remaining = 0
  start: SimTime = 0
  bytes = 0
  op: Op = READ
}

/**
 * A workload process as the kernel sees it: an I/O context for the schedulers, a CPU task for the
 * CPU scheduler, and the system-call state machine that turns the program's calls into CPU
 * bursts, page-cache work, bios and waits. `cont` always runs while the task holds a CPU.
 */
export class Task implements Sys, CpuTask, IoContext, SlotWaiter, BioOwner, Handler {
  // IoContext
  exited = false
  // CpuTask
  readonly weight: number
  cpuWork = 0
  cpuTime = 0
  vruntime = 0
  onCpu = -1
  // Sys
  reaped = 0
  aioInFlight = 0

  state = TASK_NEW
  private k = K_STEP
  private afterSubmit = K_STEP
  // The system call in progress.
  private file: SimFile | null = null
  private off = 0
  private len = 0
  private op: Op = READ
  private opSync = true
  private opStart: SimTime = 0
  /** Buffered read: next page to look at, end page. Direct: next byte to issue (physio). */
  private pg = 0
  private endPg = 0
  /** Pages dirtied by the current write, pages it has written back itself (throttling). */
  private dirtied = 0
  private written = 0
  /** Bios built, waiting to be submitted from `subIdx`. */
  private readonly bios: Bio[] = []
  private subIdx = 0
  /** Direct I/O: next sector to issue and the end. */
  private dirNext = 0
  private dirEnd = 0
  /** Direct I/O bios not yet completed. */
  private outstanding = 0
  private aioDone = 0
  private aioMin = 0
  private readonly aioPool: AioSlot[] = []
  private readonly ra = new Map<number, RaState>()
  private readonly sleepTimer: Timer

  /** Anonymous memory, made on first use. */
  private anon: AnonSpace | null = null
  private touchNext = 0
  private touchEnd = 0
  private touchWrite = false
  private touchCpu = 0
  private touchPending = 0
  /** The process that spawned this one, or null for the experiment's own processes. */
  parent: Task | null = null
  liveChildren = 0
  /** Children exited and not yet waited for. */
  private zombies = 0
  private forked = 0
  private pendingChild: { name: string; program: Program } | null = null
  /** CPU time of exited children (and theirs). */
  childCpuTime = 0

  // Results.
  readonly latency = new LatencyHistogram()
  bytesRead = 0
  bytesWritten = 0
  ops = 0
  startedAt: SimTime = -1
  finishedAt: SimTime = -1

  constructor(
    readonly kernel: Kernel,
    readonly pid: number,
    readonly name: string,
    readonly program: Program,
    readonly rng: Rng,
    public ioClass: IoPrioClass,
    public ioLevel: number,
    readonly nice: number,
  ) {
    this.weight = niceWeight(nice)
    this.sleepTimer = new Timer(kernel.engine, this, 0)
  }

  get now(): SimTime {
    return this.kernel.engine.now
  }

  get cpuUsed(): SimTime {
    return this.cpuTime + this.childCpuTime
  }

  /** Start running the program. */
  start(): void {
    this.state = TASK_RUN
    this.startedAt = this.now
    this.k = K_STEP
    this.kernel.cpu.run(this, 0)
  }

  // --- Sys: each call sets the continuation and asks for the CPU it costs ---

  read(file: SimFile, offset: number, bytes: number, direct: boolean): void {
    this.begin(file, offset, bytes, READ)
    this.k = direct || file.raw ? K_DIRECT : K_READ
    this.directRange()
    if (this.k === K_READ) {
      this.pg = Math.floor(offset / PAGE)
      this.endPg = Math.min(Math.ceil((offset + bytes) / PAGE), file.pageCount)
    }
    this.burst(this.kernel.h.syscall)
  }

  write(file: SimFile, offset: number, bytes: number, direct: boolean): void {
    this.begin(file, offset, bytes, WRITE)
    this.k = direct || file.raw ? K_DIRECT : K_WRITE
    this.directRange()
    this.burst(this.kernel.h.syscall + (this.k === K_DIRECT ? this.kernel.h.submit : 0))
  }

  fsync(file: SimFile): void {
    this.begin(file, 0, 0, WRITE)
    this.k = K_FSYNC
    this.burst(this.kernel.h.syscall)
  }

  compute(ns: SimTime): void {
    this.k = K_STEP
    this.burst(ns)
  }

  charDevice(bytes: number, fill: boolean): void {
    this.k = K_STEP
    const h = this.kernel.h
    this.burst(h.syscall + (fill ? Math.round((bytes / 1024) * h.copyPerKiB) : 0))
  }

  sleep(ns: SimTime): void {
    this.k = K_STEP
    this.block()
    this.sleepTimer.set(this.now + Math.max(0, Math.round(ns)))
  }

  aioSubmit(file: SimFile, offset: number, bytes: number, op: Op, sync = true): void {
    this.begin(file, offset, bytes, op)
    this.opSync = sync
    this.k = K_AIO
    this.burst(this.kernel.h.syscall + this.kernel.h.submit)
  }

  aioWait(min: number): void {
    this.aioMin = Math.max(1, Math.min(min, this.aioInFlight))
    this.k = K_AIO_WAIT
    if (this.aioDone >= this.aioMin) this.burst(this.kernel.h.syscall)
    else this.block() // io_getevents sleeps at once; its cost is charged when it returns (wake)
  }

  exit(): void {
    this.k = K_EXITED
    this.state = TASK_DONE
    this.exited = true
    this.finishedAt = this.now
    this.kernel.cpu.release(this)
    this.kernel.taskExited(this)
    this.parent?.childExited(this)
  }

  // --- anonymous memory: faults, and waits for swap ---

  touch(first: number, pages: number, write: boolean, cpuPerPage: SimTime): void {
    this.touchNext = first
    this.touchEnd = first + pages
    this.touchWrite = write
    this.touchCpu = cpuPerPage
    this.touchPending = 0
    this.k = K_TOUCH
    this.touchLoop()
  }

  private touchLoop(): void {
    const k = this.kernel
    const sp = (this.anon ??= k.anon.space())
    while (this.touchNext < this.touchEnd) {
      if (k.anon.touch(sp, this.touchNext, this.touchWrite) === 'wait') {
        if (this.touchPending > 0) {
          // charge the computation done so far before sleeping on the fault
          const cpu = this.touchPending
          this.touchPending = 0
          this.k = K_TOUCH
          this.burst(cpu)
          return
        }
        this.k = K_TOUCH
        this.block()
        k.waitMemory(this)
        return
      }
      this.touchNext++
      this.touchPending += this.touchCpu
    }
    const cpu = this.touchPending
    this.touchPending = 0
    this.k = K_STEP
    this.burst(Math.max(1, cpu))
  }

  // --- processes: fork, wait; a parent's results include its children's, as `time make` does ---

  spawn(name: string, program: Program): void {
    this.pendingChild = { name, program }
    this.k = K_SPAWN
    this.burst(this.kernel.h.fork)
  }

  private forkChild(): void {
    const c = this.pendingChild!
    this.pendingChild = null
    this.liveChildren++
    this.kernel.spawnChild(this, `${this.name}/${c.name}`, c.program, this.forked++).start()
    this.k = K_STEP
    this.program.step(this)
  }

  waitChild(): void {
    this.k = K_STEP
    if (this.zombies > 0 || this.liveChildren === 0) {
      if (this.zombies > 0) this.zombies--
      this.burst(this.kernel.h.syscall)
      return
    }
    this.k = K_WAIT_CHILD
    this.block()
  }

  private childExited(c: Task): void {
    this.liveChildren--
    this.bytesRead += c.bytesRead
    this.bytesWritten += c.bytesWritten
    this.ops += c.ops
    this.latency.merge(c.latency)
    this.childCpuTime += c.cpuTime + c.childCpuTime
    if (this.state === TASK_BLOCKED && this.k === K_WAIT_CHILD) this.wake(K_STEP, this.kernel.h.syscall)
    else this.zombies++
  }

  // --- the state machine ---

  cpuDone(): void {
    switch (this.k) {
      case K_STEP:
        this.program.step(this)
        return
      case K_READ:
        this.readLoop()
        return
      case K_WRITE:
        this.bufferedWrite()
        return
      case K_BALANCE:
        this.balance()
        return
      case K_DIRECT:
        this.direct()
        return
      case K_OP_DONE:
        this.opDone()
        return
      case K_FSYNC:
        this.fsyncStart()
        return
      case K_AIO:
        this.aioIssue()
        return
      case K_AIO_WAIT:
        this.aioCollect()
        return
      case K_SUBMIT:
        this.submitRest()
        return
      case K_DIRECT_WAIT:
        this.directWait()
        return
      case K_DIRECT_NEXT:
        this.directNext()
        return
      case K_FSYNC_WAIT:
        this.fsyncWait()
        return
      case K_SPAWN:
        this.forkChild()
        return
      case K_TOUCH:
        this.touchLoop()
        return
    }
  }

  private directRange(): void {
    this.dirNext = Math.floor(this.off / 512)
    this.dirEnd = Math.ceil(Math.min(this.off + this.len, this.file!.size) / 512)
  }

  private begin(file: SimFile, offset: number, bytes: number, op: Op): void {
    this.opSync = true
    this.file = file
    this.off = offset
    this.len = bytes
    this.op = op
    this.opStart = this.now
  }

  private burst(ns: SimTime): void {
    this.kernel.cpu.run(this, ns)
  }

  private block(): void {
    this.state = TASK_BLOCKED
    this.kernel.cpu.release(this)
  }

  /** Woken (I/O done, slot granted, timer): become runnable and continue with `k`. */
  wake(k: number, cost: SimTime = 0): void {
    if (this.state === TASK_DONE) return
    this.k = k
    this.state = TASK_RUN
    this.kernel.cpu.run(this, cost)
  }

  get blockedOn(): number {
    return this.state === TASK_BLOCKED ? this.k : -1
  }

  onEvent(): void {
    this.sleepTimer.fired()
    this.wake(K_STEP)
  }

  private opDone(): void {
    const lat = this.now - this.opStart
    this.latency.record(lat)
    this.ops++
    if (this.op === READ) this.bytesRead += this.len
    else this.bytesWritten += this.len
    this.k = K_STEP
    this.program.step(this)
  }

  // --- submitting bios (may sleep when the queue has no free request) ---

  /** Submit the built bios; returns false if the task went to sleep waiting for a slot. */
  private submitAll(then: number): boolean {
    const q = this.kernel.queue
    const bios = this.bios
    while (this.subIdx < bios.length) {
      const b = bios[this.subIdx++]
      if (!q.submit(b, this)) {
        this.afterSubmit = then
        this.k = K_SUBMIT
        this.block()
        return false
      }
    }
    while (bios.length > 0) bios.pop() // not `length = 0`: a runtime call on every request
    this.subIdx = 0
    return true
  }

  slotGranted(): void {
    this.wake(K_SUBMIT)
  }

  private submitRest(): void {
    if (this.submitAll(this.afterSubmit)) {
      this.k = this.afterSubmit
      this.cpuDone()
    }
  }

  // --- buffered read: page by page, with read-ahead and waits on locked pages ---

  private raState(f: SimFile): RaState {
    let r = this.ra.get(f.id)
    if (r === undefined) {
      r = new RaState()
      this.ra.set(f.id, r)
    }
    return r
  }

  private readLoop(): void {
    const f = this.file!
    const pages = f.pageStates()
    const k = this.kernel
    const max = k.raPages
    while (this.pg < this.endPg) {
      const p = this.pg
      const s = pages[p]
      if (s === 0) {
        const w = ondemand(this.raState(f), max, p, this.endPg - p, false, (a, l) => k.nextHole(f, a, l))
        if (w !== null) k.cache.readPages(f, w.start, w.size, w.marker, this, this.bios)
        if (pages[p] === 0) k.cache.readPages(f, p, this.endPg - p, -1, this, this.bios)
        if (!this.submitAll(K_READ)) return
        continue
      }
      if (s & PG_READAHEAD) {
        pages[p] = s & ~PG_READAHEAD
        const w = ondemand(this.raState(f), max, p, this.endPg - p, true, (a, l) => k.nextHole(f, a, l))
        if (w !== null) {
          k.cache.readPages(f, w.start, w.size, w.marker, this, this.bios)
          if (!this.submitAll(K_READ)) return
        }
        continue
      }
      if (s & PG_LOCKED || !(s & PG_UPTODATE)) {
        this.k = K_READ
        this.block()
        k.waitPage(this, f, p)
        return
      }
      k.cache.touch(f, p)
      this.pg++
    }
    this.raState(f).prevPage = this.endPg - 1
    this.k = K_OP_DONE
    this.burst(Math.round((this.len / 1024) * k.h.copyPerKiB))
  }

  // --- buffered write: dirty the pages, copy, then balance dirty memory ---

  private bufferedWrite(): void {
    const f = this.file!
    const k = this.kernel
    const first = Math.floor(this.off / PAGE)
    const end = Math.min(Math.ceil((this.off + this.len) / PAGE), f.pageCount)
    k.cache.dirtyPages(f, first, end - first, this.now)
    this.dirtied = end - first
    this.written = 0
    this.k = K_BALANCE
    this.burst(Math.round((this.len / 1024) * k.h.copyPerKiB))
  }

  /** balance_dirty_pages: throttle a writer that pushed dirty memory over the limit. */
  private balance(): void {
    const k = this.kernel
    k.flusher.maybeBackground()
    if (!k.overDirtyLimit()) {
      this.opDone()
      return
    }
    if (k.h.throttle === 'sleep') {
      this.k = K_BALANCE
      this.block()
      k.waitDirty(this)
      return
    }
    // 2.5–3.1: the writer writes back 1.5× what it dirtied, then it has done its duty.
    const chunk = Math.ceil(this.dirtied * 1.5) - this.written
    if (chunk > 0 && k.cache.dirty > 0) {
      const n = k.flusher.collect(chunk, this, this.bios)
      this.written += n
      if (n > 0) {
        if (!this.submitAll(K_BALANCE)) return
        this.balance()
        return
      }
    }
    if (this.written >= Math.ceil(this.dirtied * 1.5)) {
      this.opDone()
      return
    }
    // Nothing of ours left to write: congestion_wait(WRITE, HZ/10).
    this.k = K_BALANCE
    this.block()
    k.waitCongestion(this)
  }

  // --- direct I/O: bios straight from the process; BSD physio issues one chunk at a time ---

  private direct(): void {
    const f = this.file!
    const q = this.kernel.queue
    const physio = this.kernel.h.physio
    const end = this.dirEnd
    let fs = this.dirNext
    while (fs < end) {
      const len = Math.min(end - fs, f.contiguousFrom(fs), q.maxSectors)
      this.bios.push(this.ownBio(f.map(fs), len, null))
      this.outstanding++
      fs += len
      if (physio) break
    }
    this.dirNext = fs
    if (this.submitAll(K_DIRECT_WAIT)) this.directWait()
  }

  private ownBio(sector: number, nsect: number, slot: AioSlot | null): Bio {
    return this.kernel.queue.makeBio(sector, nsect, this.op, this.opSync, this, this, slot, 0)
  }

  private directWait(): void {
    if (this.outstanding > 0) {
      this.k = K_DIRECT_WAIT
      this.block()
    } else this.directNext()
  }

  private directNext(): void {
    if (this.dirNext >= this.dirEnd) {
      this.opDone()
      return
    }
    // physio: the next chunk is issued from the process, which needs the CPU for it
    this.k = K_DIRECT
    this.burst(this.kernel.h.submit)
  }

  bioDone(bio: Bio): void {
    const slot = bio.ref as AioSlot | null
    if (slot !== null) {
      if (--slot.remaining === 0) this.aioComplete(slot)
      return
    }
    if (--this.outstanding === 0 && this.state === TASK_BLOCKED && this.k === K_DIRECT_WAIT)
      this.wake(K_DIRECT_NEXT)
  }

  // --- fsync ---

  private fsyncStart(): void {
    const k = this.kernel
    const f = this.file!
    k.cache.writebackPages(f, f.dirty, true, this, this.bios, 0)
    if (!this.submitAll(K_FSYNC_WAIT)) return
    this.fsyncWait()
  }

  private fsyncWait(): void {
    const f = this.file!
    if (f.writeback > 0) {
      this.k = K_FSYNC_WAIT
      this.block()
      this.kernel.waitWriteback(this, f)
      return
    }
    this.opDone()
  }

  // --- asynchronous direct I/O ---

  private aioIssue(): void {
    const q = this.kernel.queue
    const f = this.file!
    const slot = this.aioPool.pop() ?? new AioSlot()
    slot.start = this.opStart
    slot.bytes = this.len
    slot.op = this.op
    slot.remaining = 0
    let fs = Math.floor(this.off / 512)
    const endSector = Math.ceil(Math.min(this.off + this.len, f.size) / 512)
    while (fs < endSector) {
      const len = Math.min(endSector - fs, f.contiguousFrom(fs), q.maxSectors)
      this.bios.push(this.ownBio(f.map(fs), len, slot))
      slot.remaining++
      fs += len
    }
    this.aioInFlight++
    if (slot.remaining === 0) {
      this.aioComplete(slot)
    }
    if (!this.submitAll(K_STEP)) return
    this.k = K_STEP
    this.program.step(this)
  }

  private aioComplete(slot: AioSlot): void {
    this.latency.record(this.now - slot.start)
    this.ops++
    if (slot.op === READ) this.bytesRead += slot.bytes
    else this.bytesWritten += slot.bytes
    this.aioDone++
    this.aioPool.push(slot)
    if (this.state === TASK_BLOCKED && this.k === K_AIO_WAIT && this.aioDone >= this.aioMin)
      this.wake(K_AIO_WAIT)
  }

  private aioCollect(): void {
    if (this.aioDone >= this.aioMin) {
      this.reaped = this.aioDone
      this.aioInFlight -= this.aioDone
      this.aioDone = 0
      this.k = K_STEP
      this.program.step(this)
      return
    }
    this.k = K_AIO_WAIT
    this.block()
  }

  /** Woken by the kernel's wait queues with the continuation to run. */
  resume(k: number): void {
    this.wake(k)
  }
}

export { K_READ, K_BALANCE, K_FSYNC_WAIT, K_TOUCH }
