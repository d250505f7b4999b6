import type { Handler } from '../sim/engine'
import type { SimTime } from '../sim/time'
import type { Request, DeviceInfo } from '../block/types'
import type { ParamSpec, ParamValues } from '../util/params'
import type { CompletionSink, Device, DeviceContext } from './device'
import { markPart } from './device-parts'

/** Parameters of the null_blk model. */
export const nullblkParams: readonly ParamSpec[] = [
  {
    name: 'capacityGiB',
    kind: 'number',
    default: 250,
    unit: 'GiB',
    meaning: 'size of the device',
    min: 0.001,
    max: 1 << 20,
  },
  {
    name: 'completionUs',
    kind: 'number',
    default: 10,
    unit: 'µs',
    meaning: 'completion_nsec: fixed time of every command',
    min: 0,
    max: 1e9,
  },
  {
    name: 'bandwidthMBps',
    kind: 'number',
    default: 0,
    unit: 'MB/s',
    meaning: 'transfer rate added per byte (0 = none: every command takes completionUs)',
    min: 0,
    max: 1e6,
  },
  {
    name: 'queueDepth',
    kind: 'int',
    default: 64,
    unit: 'commands',
    meaning: 'hw_queue_depth: commands in flight at once',
    min: 1,
    max: 65536,
  },
  {
    name: 'maxTransferKiB',
    kind: 'int',
    default: 512,
    unit: 'KiB',
    meaning: 'max_sectors: the largest command',
    min: 4,
    max: 65536,
  },
  {
    name: 'rotational',
    kind: 'bool',
    default: false,
    unit: '',
    meaning: 'reported as rotational (schedulers that check it behave as on a disk)',
  },
]

/**
 * Linux's null_blk driver as a device: every command completes after a fixed time (plus an
 * optional per-byte transfer), up to `queueDepth` at once, in parallel. No mechanics, no cache —
 * it isolates what a scheduler does from what a device does, for teaching and for tests.
 */
export class NullBlk implements Device, Handler {
  readonly info: DeviceInfo
  inFlight = 0
  /** Its service's parts: the fixed completion time, then the transfer at its rate. */
  readonly parts = ['completion time', 'transfer'] as const
  private readonly sink: CompletionSink
  private readonly fixed: SimTime
  private readonly nsPerByte: number

  constructor(
    v: ParamValues,
    private readonly ctx: DeviceContext,
    name = 'nullblk',
  ) {
    this.sink = ctx.sink
    this.fixed = Math.round((v.completionUs as number) * 1000)
    const bw = v.bandwidthMBps as number
    this.nsPerByte = bw > 0 ? 1000 / bw : 0
    this.info = {
      name,
      capacitySectors: Math.floor(((v.capacityGiB as number) * 1024 ** 3) / 512),
      rotational: v.rotational as boolean,
      queueDepth: v.queueDepth as number,
      maxTransferSectors: (v.maxTransferKiB as number) * 2,
    }
  }

  start(rq: Request, now: SimTime): void {
    this.inFlight++
    const done = now + this.fixed + Math.round(rq.nsect * 512 * this.nsPerByte)
    if (rq.devParts !== null) {
      markPart(rq, 0, now + this.fixed)
      markPart(rq, 1, done)
    }
    this.ctx.engine.at(done, this, 0, rq)
  }

  onEvent(_kind: number, data: unknown): void {
    this.inFlight--
    this.sink.deviceCompleted(data as Request, this.ctx.engine.now)
  }
}
