import type { Handler } from '../sim/engine'
import { Timer } from '../sim/engine'
import type { Rng } from '../sim/rng'
import type { SimTime } from '../sim/time'
import type { SlotWaiter } from '../block/queue'
import type { Bio, BioOwner, IoContext, IoPrioClass, Op } from '../block/types'
import { READ, WRITE } from '../block/types'
import type { LatencyHistogram } from '../metrics/histogram'
import { LatencyGather } from '../metrics/latency-gather'
import type { CpuTask } from './cpu'
import { niceWeight } from './cpu'
import type { SimFile } from './files'
import { PAGE } from './files'
import type { Program, Sys } from './program'
import type { AccessAdvice, RaState } from './readahead'
import { adviseAccess } from './readahead'
import type { AnonSpace } from './anon'
import type { Kernel } from './kernel'
import type { Allocator } from './reclaim'
import {
  K_AIO,
  K_AIO_WAIT,
  K_BALANCE,
  K_DIRECT,
  K_DIRECT_NEXT,
  K_DIRECT_WAIT,
  K_EXITED,
  K_FAULT_WAIT,
  K_FADVISE,
  K_FADVISE_DROP,
  K_FLUSHBUF,
  K_FLUSHBUF_WAIT,
  K_FLUSHBUF_MORE,
  K_FSYNC,
  K_FSYNC_MORE,
  K_FSYNC_WAIT,
  K_META,
  K_OP_DONE,
  K_READ,
  K_SPAWN,
  K_STEP,
  K_SUBMIT,
  K_TOUCH,
  K_WAIT_CHILD,
  K_WRITE,
  TASK_BLOCKED,
  TASK_DONE,
  TASK_NEW,
  TASK_RUN,
} from './continuations'
import { raState, readLoop } from './read-path'
import { balance, bufferedWrite, fsyncMore, fsyncStart, fsyncWait } from './write-path'
import type { AioSlot } from './direct-path'
import { aioCollect, aioComplete, aioIssue, direct, directNext, directWait } from './direct-path'
import { faultWait, touchLoop } from './fault-path'
import { metaStep } from './meta-path'
import type { MetaOp } from '../fs/types'
import { fadviseDrop, fadviseStart, flushBufMore, flushBufStart, flushBufWait } from './cache-control-path'
import { DIO_UNCHECKED } from './dio-coherence'
import { sleepPart, TimeAccount } from './time-account'
import type { ProcessTime } from '../metrics/why'

/**
 * A workload process as the kernel sees it: an I/O context for the schedulers, a CPU task for the
 * CPU scheduler, and the system-call state machine that turns the program's calls into CPU
 * bursts, page-cache work, bios and waits. The continuation `k` always runs while the task holds a
 * CPU; the read, write, direct-I/O and fault paths live in files named for them.
 */
export class Task implements Sys, CpuTask, IoContext, SlotWaiter, BioOwner, Handler, Allocator {
  // IoContext
  exited = false
  // CpuTask
  readonly weight: number
  cpuWork = 0
  cpuTime = 0
  vruntime = 0
  onCpu = -1
  lastCpu = -1
  wantCpu = -1
  // Sys
  reaped = 0
  aioInFlight = 0

  state = TASK_NEW
  // The state of the system call in progress: the paths (read-path.ts, write-path.ts,
  // direct-path.ts, fault-path.ts) read and advance it; nothing outside host/ touches it.
  k = K_STEP
  private afterSubmit = K_STEP
  /** I/O scheduler CPU time owed for requests made since the last charge (h.schedCpu each). */
  private schedCpuDue = 0
  // The system call in progress.
  file: SimFile | null = null
  off = 0
  len = 0
  op: Op = READ
  opSync = true
  /** The call in progress counts as an operation of the process (its latency recorded). */
  opCounted = true
  opStart: SimTime = 0
  // Fields a request of a direct transfer touches come first, near one another (a thousand
  // processes' tasks do not stay in the CPU's caches between their requests).
  /** Where the direct transfer in progress stands with the cached data it overlaps (dio-coherence.ts). */
  dioState = DIO_UNCHECKED
  /** Bios built, waiting to be submitted from `subIdx`. */
  readonly bios: Bio[] = []
  private subIdx = 0
  /** Direct I/O: next sector to issue and the end. */
  dirNext = 0
  dirEnd = 0
  /** Direct I/O bios not yet completed. */
  outstanding = 0

  // Results.
  /** Its operations' latencies (fio's clat): `recordLatency`, read as `latency`. */
  private readonly opLatency = new LatencyGather()
  /** Where its time went (why.ts ProcessTime), and the account frozen when its clock stopped. */
  readonly time = new TimeAccount()
  stoppedTime: ProcessTime | null = null
  bytesRead = 0
  bytesWritten = 0
  ops = 0

  /** Buffered read: next page to look at, end page. Direct: next byte to issue (physio). */
  pg = 0
  endPg = 0
  /** fsync: fdatasync; its progress (0: before the file system's part, 1: after); metadata file it waits on. */
  datasync = false
  fsPhase = 0
  fsWait: SimFile | null = null
  /** The namespace operation in progress and its file number. */
  metaKind: MetaOp = 'stat'
  metaN = 0
  /** Pages dirtied by the current write, pages it has written back itself (throttling). */
  dirtied = 0
  written = 0
  /** Pages a buffered read allocated fresh (page-reporting.ts), charged with its copy. */
  freshPages = 0
  aioDone = 0
  aioMin = 0
  /** The most events the pending io_getevents reaps. */
  aioMax = Infinity
  readonly aioPool: AioSlot[] = []
  /** Completed asynchronous I/Os not yet reaped by io_getevents (their latency ends at the reap). */
  readonly aioReady: AioSlot[] = []
  readonly ra = new Map<number, RaState>()
  private readonly sleepTimer: Timer

  /** Anonymous memory, made on first use; freed when the process exits. */
  anon: AnonSpace | null = null
  /** Scan priority of its direct reclaim (Reclaim.allocate). */
  reclaimPriority: number
  touchNext = 0
  touchEnd = 0
  touchWrite = false
  touchCpu = 0
  touchPending = 0
  /** The process that spawned this one, or null for the experiment's own processes. */
  parent: Task | null = null
  liveChildren = 0
  /** Children exited and not yet waited for. */
  private zombies = 0
  private forked = 0
  private pendingChild: { name: string; program: Program } | null = null
  /** CPU time of exited children (and theirs). */
  childCpuTime = 0

  // Results, continued.
  startedAt: SimTime = -1
  finishedAt: SimTime = -1
  /** When the process's figures stopped (Sys.stopClock), or -1: at its exit. */
  clockStoppedAt: SimTime = -1

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
    this.reclaimPriority = kernel.era.defPriority
  }

  get now(): SimTime {
    return this.kernel.engine.now
  }

  /** Its operations' latencies so far. */
  get latency(): LatencyHistogram {
    return this.opLatency.histogram()
  }

  recordLatency(ns: SimTime): void {
    this.opLatency.record(ns)
  }

  get cpuUsed(): SimTime {
    return this.cpuTime + this.childCpuTime
  }

  /** Start running the program. */
  start(): void {
    this.state = TASK_RUN
    this.startedAt = this.now
    this.time.begin(this.now, this.cpuTime, true)
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
    } else if (!file.raw && this.kernel.fs !== null) this.kernel.fs.accessed(this, file)
    this.burst(this.kernel.h.syscall)
  }

  write(file: SimFile, offset: number, bytes: number, direct: boolean): void {
    this.begin(file, offset, bytes, WRITE)
    this.k = direct || file.raw ? K_DIRECT : K_WRITE
    this.directRange()
    const fs = this.kernel.fs
    if (fs !== null && this.k === K_DIRECT && !file.raw) fs.written(this, file, offset, bytes, true)
    this.burst(this.kernel.h.syscall + (this.k === K_DIRECT ? this.kernel.h.submit : 0))
  }

  fsync(file: SimFile, datasync = false, counted = true): void {
    this.begin(file, 0, 0, WRITE)
    this.datasync = datasync
    this.opCounted = counted
    this.k = K_FSYNC
    this.burst(this.kernel.h.syscall)
  }

  truncate(file: SimFile): void {
    if (!file.raw) this.kernel.fs?.truncate(this, file)
    this.k = K_STEP
    this.burst(this.kernel.h.syscall)
  }

  get fsMetadata(): boolean {
    return this.kernel.fs !== null
  }

  metaOp(op: MetaOp, n: number): void {
    const fs = this.kernel.fs
    if (fs === null || fs.meta === null)
      throw new Error('metaOp needs a file system (check fsMetadata first)')
    this.begin(fs.meta, 0, 0, op === 'stat' ? READ : WRITE)
    this.metaKind = op
    this.metaN = n
    this.k = K_META
    this.burst(this.kernel.h.syscall)
  }

  fadviseDontNeed(file: SimFile, offset: number, bytes: number): void {
    this.begin(file, offset, bytes, WRITE)
    this.k = K_FADVISE
    this.burst(this.kernel.h.syscall)
  }

  adviseAccess(file: SimFile, advice: AccessAdvice): void {
    adviseAccess(raState(this, file), advice, this.kernel.raPages)
  }

  flushBlockDevice(): void {
    this.file = null
    this.k = K_FLUSHBUF
    this.burst(this.kernel.h.syscall)
  }

  openBlockDevice(): void {
    this.kernel.bdevOpeners++
    this.k = K_STEP
    this.burst(this.kernel.h.syscall)
  }

  closeBlockDevice(): void {
    if (--this.kernel.bdevOpeners > 0 || this.kernel.blockDeviceCache === null) {
      this.k = K_STEP
      this.burst(this.kernel.h.syscall)
      return
    }
    this.flushBlockDevice() // the last close: sync_blockdev, then the cache dropped
  }

  stopClock(): void {
    this.clockStoppedAt = this.now
    this.stoppedTime = this.time.at(this.now, this.cpuTime)
  }

  resetStats(): void {
    this.opLatency.reset()
    this.bytesRead = 0
    this.bytesWritten = 0
    this.ops = 0
    this.startedAt = this.now
    this.time.begin(this.now, this.cpuTime, this.state !== TASK_BLOCKED, this.time.sleeping)
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

  aioWait(min: number, max = Infinity): void {
    this.aioMin = Math.max(1, Math.min(min, this.aioInFlight))
    this.aioMax = Math.max(this.aioMin, max)
    this.k = K_AIO_WAIT
    if (this.aioDone >= this.aioMin) this.burst(this.kernel.h.syscall)
    else this.block() // io_getevents sleeps at once; its cost is charged when it returns (wake)
  }

  exit(): void {
    this.k = K_EXITED
    this.state = TASK_DONE
    this.exited = true
    this.finishedAt = this.now
    if (this.anon) this.kernel.anon.release(this.anon)
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
    touchLoop(this)
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
        readLoop(this)
        return
      case K_WRITE:
        bufferedWrite(this)
        return
      case K_BALANCE:
        balance(this)
        return
      case K_DIRECT:
        direct(this)
        return
      case K_OP_DONE:
        this.opDone()
        return
      case K_FSYNC:
        fsyncStart(this)
        return
      case K_AIO:
        aioIssue(this)
        return
      case K_AIO_WAIT:
        aioCollect(this)
        return
      case K_SUBMIT:
        this.submitRest()
        return
      case K_DIRECT_WAIT:
        directWait(this)
        return
      case K_DIRECT_NEXT:
        directNext(this)
        return
      case K_FSYNC_WAIT:
        fsyncWait(this)
        return
      case K_FSYNC_MORE:
        fsyncMore(this)
        return
      case K_FADVISE:
        fadviseStart(this)
        return
      case K_FADVISE_DROP:
        fadviseDrop(this)
        return
      case K_FLUSHBUF:
        flushBufStart(this)
        return
      case K_FLUSHBUF_WAIT:
        flushBufWait(this)
        return
      case K_FLUSHBUF_MORE:
        flushBufMore(this)
        return
      case K_SPAWN:
        this.forkChild()
        return
      case K_TOUCH:
        touchLoop(this)
        return
      case K_FAULT_WAIT:
        faultWait(this)
        return
      case K_META:
        metaStep(this)
        return
    }
  }

  private directRange(): void {
    this.dirNext = Math.floor(this.off / 512)
    this.dirEnd = Math.ceil(Math.min(this.off + this.len, this.file!.size) / 512)
  }

  private begin(file: SimFile, offset: number, bytes: number, op: Op): void {
    this.opSync = true
    this.opCounted = true
    this.dioState = DIO_UNCHECKED
    this.file = file
    this.off = offset
    this.len = bytes
    this.op = op
    this.opStart = this.now
  }

  /** Run on a CPU for `ns`, plus any I/O-scheduler work `submitAll` left owing. */
  burst(ns: SimTime): void {
    const due = this.schedCpuDue
    this.schedCpuDue = 0
    this.kernel.cpu.run(this, ns + due)
  }

  block(): void {
    this.time.sleep(this.now, sleepPart(this.k, this.op, this.afterSubmit))
    this.state = TASK_BLOCKED
    this.kernel.cpu.release(this)
  }

  /** Woken (I/O done, slot granted, timer): become runnable and continue with `k`. */
  wake(k: number, cost: SimTime = 0): void {
    if (this.state === TASK_DONE) return
    this.time.woke(this.now)
    this.k = k
    this.state = TASK_RUN
    this.kernel.cpu.run(this, cost + this.kernel.h.wake)
  }

  /** Asleep waiting to continue with `k`. */
  isBlockedOn(k: number): boolean {
    return this.state === TASK_BLOCKED && this.k === k
  }

  get blockedOn(): number {
    return this.state === TASK_BLOCKED ? this.k : -1
  }

  onEvent(): void {
    this.sleepTimer.fired()
    this.wake(K_STEP)
  }

  opDone(): void {
    if (this.opCounted) {
      this.opLatency.record(this.now - this.opStart)
      this.ops++
      if (this.op === READ) this.bytesRead += this.len
      else this.bytesWritten += this.len
    }
    this.k = K_STEP
    this.program.step(this)
  }

  /** A call that is not an I/O operation of the process returns: the program goes on. */
  syscallDone(): void {
    this.k = K_STEP
    this.program.step(this)
  }

  // --- submitting bios (may sleep when the queue has no free request) ---

  /**
   * Submit the built bios; returns false if the task went to sleep waiting for a slot, or is
   * running the I/O scheduler's work for the requests it made (then it goes on with `then`).
   * `owe`: the caller's next step is the task's own next stretch on a CPU (io_submit returning to
   * the program, which makes its next system call): the scheduler's work is added to that stretch
   * instead of being a burst of its own — the same CPU time, one event fewer per request.
   */
  submitAll(then: number, owe = false): boolean {
    const q = this.kernel.queue
    const bios = this.bios
    const cost = this.kernel.h.schedCpu
    const made = cost > 0 ? q.requestsMade : 0
    while (this.subIdx < bios.length) {
      const b = bios[this.subIdx++]
      if (!q.submit(b, this)) {
        // the held bio becomes a request when a slot is granted: its cost is this task's too
        if (cost > 0) this.schedCpuDue += (q.requestsMade - made + 1) * cost
        this.afterSubmit = then
        this.k = K_SUBMIT
        this.block()
        return false
      }
    }
    while (bios.length > 0) bios.pop() // not `length = 0`: a runtime call on every request
    this.subIdx = 0
    if (cost > 0) {
      const due = this.schedCpuDue + (q.requestsMade - made) * cost
      this.schedCpuDue = owe ? due : 0
      if (due > 0 && !owe) {
        this.k = then
        this.burst(due)
        return false
      }
    }
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

  /** A bio of this task's direct I/O is done: its aio slot, or the synchronous transfer. */
  bioDone(bio: Bio): void {
    const slot = bio.ref as AioSlot | null
    if (slot !== null) {
      if (--slot.remaining === 0) aioComplete(this, slot)
      return
    }
    if (--this.outstanding === 0 && this.isBlockedOn(K_DIRECT_WAIT)) this.wake(K_DIRECT_NEXT)
  }

  /** Woken by the kernel's wait queues with the continuation to run. */
  resume(k: number): void {
    this.wake(k)
  }
}
