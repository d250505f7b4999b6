import type { Request } from '../block/types'
import type { SimTime } from '../sim/time'
import type { HostCpu, HostThread } from './device'
import { RequestRing } from './request-ring'

/** A thread of the device's own path: serves its requests in turn, `pathNs` of CPU each. */
export class PathThread implements HostThread {
  readonly weight = 1024
  cpuWork = 0
  cpuTime = 0
  vruntime = 0
  onCpu = -1
  lastCpu = -1
  wantCpu = -1
  private readonly queue = new RequestRing()
  private running = false
  private cpu: HostCpu | null = null
  private ns = 0

  constructor(
    readonly pid: number,
    private readonly dev: { afterPath(rq: Request, now: SimTime): void },
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
    this.dev.afterPath(this.queue.shift(), now)
    if (this.queue.size > 0) this.cpu!.run(this, this.ns)
    else {
      this.running = false
      this.cpu!.release(this)
    }
  }
}
