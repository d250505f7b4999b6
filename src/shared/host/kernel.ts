import type { Engine } from '../sim/engine'
import { Timer } from '../sim/engine'
import type { Rng } from '../sim/rng'
import type { SimTime } from '../sim/time'
import { MS, US } from '../sim/time'
import type { BlockQueue } from '../block/queue'
import type { IoPrioClass } from '../block/types'
import type { ParamValues } from '../util/params'
import { CpuScheduler } from './cpu'
import { cpuParamsOf } from './cpu-params'
import type { FilePlacement, SimFile } from './files'
import { FileAllocator, PAGE } from './files'
import { PageCache } from './pagecache'
import { PG_ANY, PG_WRITEBACK } from './page-flags'
import { PageReporting } from './page-reporting'
import type { PageIoListener } from './pagecache'
import type { Program } from './program'
import { K_BALANCE, K_FSYNC_WAIT, K_READ, K_TOUCH } from './continuations'
import { Task } from './task'
import { AnonMemory } from './anon'
import { Flusher } from './writeback'
import { Kswapd } from './kswapd'
import { Reclaim } from './reclaim'
import type { VmEra, VmEraName, Watermarks } from './vm-era'
import { VM_ERAS, eraWatermarks } from './vm-era'
import type { FileSystem, FsSpec } from '../fs/types'
import { findFileSystem } from '../fs/registry'
import { LatencyGather } from '../metrics/latency-gather'
import { writeCallDraw } from './write-call'
import { hostRuntime } from './host-runtime'
import type { HostRuntime } from './host-runtime'

export interface SpawnOptions {
  ioClass: IoPrioClass
  ioLevel: number
  nice: number
}

/**
 * The modelled operating system: CPUs and their scheduler, the page cache with read-ahead and
 * writeback, files on the device, and the wait queues that connect them. Tasks run programs;
 * their I/O goes through the block queue it was given.
 */
export class Kernel implements PageIoListener {
  readonly cpu: CpuScheduler
  readonly cache: PageCache
  readonly flusher: Flusher
  readonly h: HostRuntime
  /** A buffered write()'s own work drawn per call (writeCallQuantilesUs), or null: h.writeCall. */
  readonly writeCall: (() => SimTime) | null
  readonly raPages: number
  readonly files: SimFile[] = []
  readonly tasks: Task[] = []
  readonly dirtyThresh: number
  readonly backgroundThresh: number
  private readonly alloc: FileAllocator
  private readonly byName = new Map<string, SimFile>()
  private readonly pageWaiters: { t: Task; f: SimFile; p: number }[] = []
  private readonly dirtyWaiters: Task[] = []
  private readonly congestionWaiters: Task[] = []
  private readonly congestionTimer: Timer
  private readonly wbWaiters: { t: Task; f: SimFile; k: number }[] = []
  private readonly rangeWaiters: { t: Task; f: SimFile; first: number; end: number; k: number }[] = []
  /** The block device's page cache, made when a buffered /dev workload first asks for it. */
  private bdevCache: SimFile | null = null
  /** Processes that have the block device open (its last close drops its page cache). */
  bdevOpeners = 0
  private readonly memoryWaiters: Task[] = []
  private readonly memoryTimer: Timer
  /** Every process's operation latencies (fio's clat), gathered before their histograms. */
  readonly latencies = new LatencyGather()
  /** The era's reclaim (host `vm`) and its zone watermarks. */
  readonly era: VmEra
  readonly wm: Watermarks
  /** Processes' anonymous memory and swap (made at start, once the files are laid out). */
  anon!: AnonMemory
  reclaim!: Reclaim
  /** The background reclaim thread, or null when the era reclaims only directly. */
  kswapd: Kswapd | null = null
  private nextPid = 100
  /** Called when a task exits. */
  onExit: ((t: Task) => void) | null = null
  /** The mounted file system, or null when none is modelled (files are bare extents). */
  readonly fs: FileSystem | null

  constructor(
    readonly engine: Engine,
    readonly queue: BlockQueue,
    readonly hv: ParamValues,
    private readonly rng: Rng,
    fsSpec: FsSpec = { type: 'none', values: {} },
  ) {
    const n = (k: string): number => hv[k] as number
    this.h = hostRuntime(hv, queue.params.cpuPerRequest ?? 0)
    this.writeCall = writeCallDraw(hv, rng)
    this.cpu = new CpuScheduler(engine, cpuParamsOf(hv), rng.fork('cpu:ties'))
    if (hv.wakePacking === true) queue.runContext = this.cpu
    const cachePages = Math.max(64, ((n('memoryMiB') - n('reservedMiB')) * 1024 * 1024) / PAGE)
    this.cache = new PageCache(Math.floor(cachePages), queue)
    this.cache.listener = this
    if (this.h.freshPage > 0) {
      const delay = Math.round(n('pageReportingDelayMs') * MS)
      const pool = Math.round((((hv.warmPoolMiB as number | undefined) ?? 0) * 1024 * 1024) / PAGE)
      this.cache.reporting = new PageReporting(delay, () => engine.now, pool)
    }
    this.era = VM_ERAS[hv.vm as VmEraName]
    this.wm = eraWatermarks(this.era, Math.floor((n('memoryMiB') * 1024 * 1024) / PAGE), n('minFreeKiB'))
    this.cache.wm = this.wm
    this.dirtyThresh = Math.floor((cachePages * n('dirtyRatio')) / 100)
    this.backgroundThresh = Math.floor((cachePages * n('dirtyBackgroundRatio')) / 100)
    this.raPages = Math.floor((n('readAheadKiB') * 1024) / PAGE)
    this.alloc = new FileAllocator(queue.deviceInfo.capacitySectors)
    this.flusher = new Flusher(this)
    // writeback throttling knows the flusher's writeback as REQ_BACKGROUND, and kswapd's
    if (queue.wbt !== null) {
      queue.wbt.background = (c) => c === this.flusher.ctx
      queue.wbt.kswapd = (c) => c === this.kswapd
    }
    this.congestionTimer = new Timer(engine, { onEvent: () => this.congestionTimeout() }, 0)
    this.memoryTimer = new Timer(engine, { onEvent: () => this.memoryTimeout() }, 0)
    const fsType = findFileSystem(fsSpec.type)
    if (fsType === undefined) throw new Error(`unknown file system "${fsSpec.type}"`)
    this.fs = fsType.create(fsSpec.values, {
      engine,
      queue,
      cache: this.cache,
      hz: n('hz'),
      registerInternal: (f) => this.register(f),
    })
    this.fs?.reserve(this.alloc, queue.deviceInfo.capacitySectors)
  }

  /** Lay out a file on the device. */
  addFile(p: FilePlacement): SimFile {
    if (this.byName.has(p.name)) throw new Error(`file "${p.name}" is defined twice`)
    const f = this.alloc.allocate(p)
    this.register(f)
    return f
  }

  /** The whole device as a file, for raw access. */
  rawDevice(): SimFile {
    const existing = this.byName.get('/dev')
    if (existing) return existing
    const f = this.alloc.rawDevice()
    this.register(f)
    return f
  }

  /**
   * The block device's page cache (buffered I/O on /dev goes through it, as through a file):
   * one per device, over the first `bytes` of it, grown to the largest region asked for while
   * the processes are being set up.
   */
  bufferedDevice(bytes: number): SimFile {
    const have = this.bdevCache
    if (have !== null) {
      have.grow(Math.min(bytes, this.queue.deviceInfo.capacitySectors * 512))
      return have
    }
    const f = this.alloc.blockDeviceCache(bytes)
    this.register(f)
    this.bdevCache = f
    return f
  }

  /** The block device's page cache if buffered /dev I/O made one. */
  get blockDeviceCache(): SimFile | null {
    return this.bdevCache
  }

  file(name: string): SimFile | undefined {
    return this.byName.get(name)
  }

  private register(f: SimFile): void {
    this.byName.set(f.name, f)
    this.files.push(f)
    this.cache.register(f)
  }

  /** A child of `parent` (inherits its I/O priority and nice); not listed among the experiment's processes. */
  spawnChild(parent: Task, name: string, program: Program, index: number): Task {
    const t = new Task(
      this,
      this.nextPid++,
      name,
      program,
      parent.rng.fork(`child:${index}`),
      parent.ioClass,
      parent.ioLevel,
      parent.nice,
    )
    t.parent = parent
    return t
  }

  spawn(name: string, program: Program, o: SpawnOptions): Task {
    const t = new Task(
      this,
      this.nextPid++,
      name,
      program,
      this.rng.fork(`task:${name}`),
      o.ioClass,
      o.ioLevel,
      o.nice,
    )
    this.tasks.push(t)
    return t
  }

  /** Lay out the file system's metadata and the swap area after the files, then start the flusher. */
  start(): void {
    this.fs?.start(this.files)
    // the swap area follows the files, as far as the device has room
    const wanted = Math.floor(((this.hv.swapMiB as number) * 2 ** 20) / PAGE)
    const swapPages = Math.min(wanted, Math.floor(this.alloc.sectorsLeft / 8))
    const swap = swapPages > 0 ? this.alloc.allocate({ name: 'swap', size: swapPages * PAGE }) : null
    this.anon = new AnonMemory(this.cache, this.queue, swap, 2 ** this.era.pageCluster)
    this.reclaim = new Reclaim(
      this.era,
      this.wm,
      this.hv.swappiness as number,
      Math.round((this.hv.reclaimUsPerPage as number) * US),
      this.cache,
      this.anon,
    )
    this.anon.reclaim = this.reclaim
    this.anon.onProgress = () => this.wakeMemory()
    this.anon.onWriteDone = () => this.writeDone()
    if (this.era.kswapd) {
      const kswapd = new Kswapd(this, this.reclaim)
      this.kswapd = kswapd
      this.reclaim.onLow = () => kswapd.wake()
      this.cache.onLow = () => kswapd.wake()
    }
    this.flusher.start()
  }

  /** A faulting task sleeps until swap I/O completes, a write completes, memory is freed, or HZ/10. */
  waitMemory(t: Task): void {
    this.memoryWaiters.push(t)
    if (!this.memoryTimer.pending) this.memoryTimer.set(this.engine.now + 100 * MS)
  }

  private memoryTimeout(): void {
    this.memoryTimer.fired()
    this.wakeMemory()
  }

  private wakeMemory(): void {
    if (this.memoryWaiters.length === 0) return
    this.memoryTimer.clear()
    const ts = this.memoryWaiters.splice(0, this.memoryWaiters.length)
    for (const t of ts) t.resume(K_TOUCH)
  }

  /** A write completed: congestion waits end (tasks, kswapd), faulting tasks re-check. */
  private writeDone(): void {
    this.wakeCongested()
    this.kswapd?.writeDone()
    this.wakeMemory()
  }

  taskExited(t: Task): void {
    this.queue.sched.contextExited?.(t.pid, this.engine.now)
    this.onExit?.(t)
  }

  // --- dirty memory ---

  overDirtyLimit(): boolean {
    return this.cache.dirty + this.cache.writeback > this.dirtyThresh
  }

  // --- wait queues ---

  waitPage(t: Task, f: SimFile, p: number): void {
    this.pageWaiters.push({ t, f, p })
  }

  waitDirty(t: Task): void {
    this.dirtyWaiters.push(t)
    // balance_dirty_pages' pause: wb->dirty_sleep, which writeback throttling reads
    this.queue.wbt?.dirtySlept(this.engine.now)
  }

  /** congestion_wait(WRITE, HZ/10): until a write completes or 100 ms pass. */
  waitCongestion(t: Task): void {
    this.congestionWaiters.push(t)
    if (!this.congestionTimer.pending) this.congestionTimer.set(this.engine.now + 100 * MS)
  }

  /** Sleep until `f` has no page under writeback, then continue with `k` (fsync, BLKFLSBUF). */
  waitWriteback(t: Task, f: SimFile, k = K_FSYNC_WAIT): void {
    this.wbWaiters.push({ t, f, k })
  }

  /** Wake `t` with `k` once no page of [first, end) of `f` is under writeback. */
  waitWritebackRange(t: Task, f: SimFile, first: number, end: number, k: number): void {
    this.rangeWaiters.push({ t, f, first, end, k })
  }

  private congestionTimeout(): void {
    this.congestionTimer.fired()
    this.wakeCongested()
  }

  private wakeCongested(): void {
    const w = this.congestionWaiters
    if (w.length === 0) return
    this.congestionTimer.clear()
    const ts = w.splice(0, w.length)
    for (const t of ts) t.resume(K_BALANCE)
  }

  /** First page at or after `after` that is not cached, within `limit` pages; -1 if none. */
  nextHole(f: SimFile, after: number, limit: number): number {
    const end = Math.min(f.pageCount, after + limit)
    const p = f.pageStates().seek(after, end, PG_ANY, false)
    if (p < end) return p
    return end < f.pageCount ? end : -1
  }

  pagesRead(f: SimFile, first: number, n: number): void {
    const w = this.pageWaiters
    for (let i = 0; i < w.length;) {
      const x = w[i]
      if (x.f === f && x.p >= first && x.p < first + n) {
        w[i] = w[w.length - 1]
        w.pop()
        x.t.resume(K_READ)
      } else i++
    }
  }

  pagesWritten(f: SimFile): void {
    if (this.fs !== null) this.fs.pagesWritten(f)
    if (this.dirtyWaiters.length > 0 && !this.overDirtyLimit()) {
      const ts = this.dirtyWaiters.splice(0, this.dirtyWaiters.length)
      for (const t of ts) t.resume(K_BALANCE)
    }
    this.writeDone()
    if (f.writeback === 0 && this.wbWaiters.length > 0) {
      const w = this.wbWaiters
      for (let i = 0; i < w.length;) {
        if (w[i].f === f) {
          const { t, k } = w[i]
          w.splice(i, 1)
          t.resume(k)
        } else i++
      }
    }
    if (this.rangeWaiters.length > 0) this.wakeRangeWaiters(f)
    this.flusher.maybeBackground()
  }

  private wakeRangeWaiters(f: SimFile): void {
    const w = this.rangeWaiters
    for (let i = 0; i < w.length;) {
      const x = w[i]
      if (x.f === f && (f.writeback === 0 || !f.anyPage(x.first, x.end, PG_WRITEBACK))) {
        w.splice(i, 1)
        x.t.resume(x.k)
      } else i++
    }
  }
}
