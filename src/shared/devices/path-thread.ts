import { Request } from '../block/types'
import type { Engine, Handler } from '../sim/engine'
import type { SimTime } from '../sim/time'
import type { HostCpu, HostThread } from './device'
import { RequestRing } from './request-ring'

/**
 * A cache flush in the path thread's turn (a loop device's REQ_OP_FLUSH): after its path work the
 * thread waits `waitNs` off the CPU — the worker's vfs_fsync of the backing file — then `done`.
 */
export class FlushMark extends Request {
  constructor(
    readonly waitNs: SimTime,
    readonly done: () => void,
  ) {
    super()
  }
}

/**
 * A thread of the device's own path: serves its requests in turn, `pathNs` of CPU each, then the
 * work of handing each to the device under it — what its `afterPath` returns (a notification, the
 * mapping of its segments: virtual.ts) — before it takes the next. A flush (FlushMark) blocks it:
 * what comes behind waits until the flush is done (drivers/block/loop.c loop_process_work: one
 * command at a time, lo_req_flush synchronous).
 */
export class PathThread implements HostThread, Handler {
  readonly weight = 1024
  cpuWork = 0
  cpuTime = 0
  vruntime = 0
  onCpu = -1
  lastCpu = -1
  wantCpu = -1
  vlag = 0
  private readonly queue = new RequestRing()
  private running = false
  private cpu: HostCpu | null = null
  private ns = 0
  /** Since when the flush under way has held the thread off the CPU. */
  private flushFrom: SimTime = 0
  /** On the CPU handing the last request to the device (its afterPath's ns), not on a request. */
  private handing = false

  constructor(
    readonly pid: number,
    private readonly dev: {
      /** The path is done with `rq`: hand it on; returns the ns of CPU the handing took (0: none). */
      afterPath(rq: Request, now: SimTime): number
      /** The flush that held the thread is done after `ns`; `waited`: the requests queued behind it. */
      flushed?(ns: SimTime, waited: (each: (rq: Request, ns: SimTime) => void) => void): void
    },
    private readonly engine: Engine,
  ) {}

  submit(rq: Request, cpu: HostCpu, ns: number): void {
    this.queue.push(rq)
    if (this.running) return
    this.running = true
    this.cpu = cpu
    this.ns = ns
    cpu.run(this, ns)
  }

  cpuDone(now: SimTime): void {
    if (this.handing) {
      this.handing = false
      return this.next()
    }
    const rq = this.queue.shift()
    if (rq instanceof FlushMark) {
      // blocked in the fsync: off the CPU, still running (what comes next queues behind it)
      this.cpu!.release(this)
      this.flushFrom = now
      this.engine.at(now + rq.waitNs, this, 0, rq)
      return
    }
    const handNs = this.dev.afterPath(rq, now)
    if (handNs > 0) {
      this.handing = true
      this.cpu!.run(this, handNs)
      return
    }
    this.next()
  }

  /** The flush's wait is over. */
  onEvent(_kind: number, data: unknown): void {
    const now = this.engine.now
    this.dev.flushed?.(now - this.flushFrom, this.behind)
    ;(data as FlushMark).done()
    if (this.queue.size > 0) this.cpu!.run(this, this.ns)
    else this.running = false
  }

  /** Each request queued behind the flush now ending, with how long it waited for it. */
  private readonly behind = (each: (rq: Request, ns: SimTime) => void): void => {
    const now = this.engine.now
    const q = this.queue
    for (let i = 0; i < q.size; i++) {
      const rq = q.at(i)
      if (rq instanceof FlushMark) continue
      each(rq, now - (rq.dispatchedAt > this.flushFrom ? rq.dispatchedAt : this.flushFrom))
    }
  }

  private next(): void {
    if (this.queue.size > 0) this.cpu!.run(this, this.ns)
    else {
      this.running = false
      this.cpu!.release(this)
    }
  }
}
