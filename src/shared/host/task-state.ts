import type { Handler } from '../sim/engine'
import { Timer } from '../sim/engine'
import type { Rng } from '../sim/rng'
import type { SimTime } from '../sim/time'
import type { Bio, IoContext, IoPrioClass, Op } from '../block/types'
import { READ } from '../block/types'
import type { LatencyHistogram } from '../metrics/histogram'
import type { ProcessTime } from '../metrics/why'
import type { MetaOp } from '../fs/types'
import type { AnonSpace } from './anon'
import { K_STEP, TASK_BLOCKED, TASK_DONE, TASK_NEW, TASK_RUN } from './continuations'
import type { CpuTask } from './cpu-params'
import { niceWeight } from './cpu-params'
import { DIO_UNCHECKED } from './dio-coherence'
import type { AioSlot } from './direct-path'
import type { SimFile } from './files'
import type { Kernel } from './kernel'
import type { Program } from './program'
import type { RaState } from './readahead'
import type { Task } from './task'
import { sleepPart, TimeAccount } from './time-account'

/**
 * What a process is to the kernel, whatever its program calls: an I/O context for the
 * schedulers, a CPU task for the CPU scheduler, its system call in progress and its results, and
 * how it blocks and is woken (Task adds the system calls). One object with its time account
 * (the class it extends): with a thousand processes, each object a request reaches is a miss.
 */
export abstract class TaskState extends TimeAccount implements CpuTask, IoContext, Handler {
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
  vlag = 0
  justForked = false
  // Sys
  reaped = 0
  aioInFlight = 0

  state = TASK_NEW
  // The state of the system call in progress: the paths (read-path.ts, write-path.ts,
  // direct-path.ts, fault-path.ts) read and advance it; nothing outside host/ touches it.
  k = K_STEP
  /** Where a submission that waited for a request slot goes on (submit-path.ts). */
  afterSubmit = K_STEP
  /** I/O scheduler CPU time owed for requests made since the last charge (h.schedCpu each). */
  schedCpuDue = 0
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
  subIdx = 0
  /** Direct I/O: next sector to issue and the end. */
  dirNext = 0
  dirEnd = 0
  /** Direct I/O bios not yet completed. */
  outstanding = 0

  // Results.
  /** Its operations' latencies (fio's clat): its histogram in the kernel's gather (`recordLatency`, `latency`). */
  private readonly latencyNo: number
  /** Where its time went (why.ts ProcessTime, from `timeAt`) frozen when its clock stopped. */
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
  /** fsync of a block device: the device's cache is flushed once its data is written (blkdev_fsync). */
  flushAfter = false
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
  protected readonly sleepTimer: Timer

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
  zombies = 0
  forked = 0
  pendingChild: { name: string; program: Program } | null = null
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
    super()
    this.weight = niceWeight(nice)
    this.latencyNo = kernel.latencies.open()
    this.sleepTimer = new Timer(kernel.engine, this, 0)
    this.reclaimPriority = kernel.era.defPriority
  }

  get now(): SimTime {
    return this.kernel.engine.now
  }

  /** Its operations' latencies so far. */
  get latency(): LatencyHistogram {
    return this.kernel.latencies.histogram(this.latencyNo)
  }

  recordLatency(ns: SimTime): void {
    this.kernel.latencies.record(this.latencyNo, ns)
  }

  get cpuUsed(): SimTime {
    return this.cpuTime + this.childCpuTime
  }

  stopClock(): void {
    this.clockStoppedAt = this.now
    this.stoppedTime = this.timeAt(this.now, this.cpuTime)
  }

  resetStats(): void {
    this.kernel.latencies.reset(this.latencyNo)
    this.bytesRead = 0
    this.bytesWritten = 0
    this.ops = 0
    this.startedAt = this.now
    this.beginAccount(this.now, this.cpuTime, this.state !== TASK_BLOCKED, this.sleepingPart)
  }

  /** Run on a CPU for `ns`, plus any I/O-scheduler work `submitAll` left owing. */
  burst(ns: SimTime): void {
    const due = this.schedCpuDue
    this.schedCpuDue = 0
    this.kernel.cpu.run(this, ns + due)
  }

  block(): void {
    this.accountSleep(this.now, sleepPart(this.k, this.op, this.afterSubmit))
    this.state = TASK_BLOCKED
    this.kernel.cpu.release(this)
  }

  /** Woken (I/O done, slot granted, timer): become runnable and continue with `k`. */
  wake(k: number, cost: SimTime = 0): void {
    if (this.state === TASK_DONE) return
    this.accountWake(this.now)
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

  /** Its burst is done: go on with `k` (continue-task.ts). */
  abstract cpuDone(): void
}
