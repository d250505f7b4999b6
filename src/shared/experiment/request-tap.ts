import type { Request } from '../block/types'
import type { SimTime } from '../sim/time'
import { RunCollector } from './collector'
import type { StageAccount } from './stage-recorder'

/**
 * One completed request as a simulated run's why accounted it: btt's stages (ns) and its D2C split
 * into the device's parts. The run keeps histograms only; this is each request's own account, for
 * tests that check it adds up request by request.
 */
export interface RequestRecord {
  pid: number
  /** Its account: the spec process (`rr/3` → `rr`), or the kernel thread ("flush"). */
  process: string
  write: boolean
  q2g: number
  g2i: number
  i2d: number
  d2c: number
  q2c: number
  /** D2C by the device's parts (ns, indexed as Device.parts), as the run added them; null without parts. */
  parts: Float64Array | null
}

/**
 * The run's collector that also hands each completed request's record to `take` (RunHooks.requests).
 * A subclass, so that a run without the hook goes through RunCollector alone: nothing of it on the
 * hot path of an ordinary run.
 */
export class RequestTap extends RunCollector {
  constructor(private readonly take: (r: RequestRecord) => void) {
    super(true)
  }

  override completed(rq: Request, now: SimTime): void {
    const st = this.stages!
    // the parts as the run takes them (Device.takeParts reads the request, changes nothing in it)
    let parts: Float64Array | null = null
    if (rq.devParts !== null) {
      parts = new Float64Array(rq.devParts.length)
      st.takeParts(rq, parts)
    }
    const q = rq.queuedAt
    const i = rq.insertedAt
    const d = rq.dispatchedAt
    super.completed(rq, now)
    // the values StageRecorder.requestInserted recorded: the simulated block layer inserts a
    // request the instant it gets one (G = I)
    this.take({
      pid: rq.ctx.pid,
      process: (rq.stat as StageAccount).process,
      write: rq.op !== 0,
      q2g: i - q,
      g2i: 0,
      i2d: d - i,
      d2c: now - d,
      q2c: now - q,
      parts,
    })
  }
}
