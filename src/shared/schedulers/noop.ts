import type { SimTime } from '../sim/time'
import { RequestFifo } from '../block/fifo'
import type { Request } from '../block/types'
import type { IoScheduler, SchedulerType } from './scheduler'

/**
 * noop (block/noop-iosched.c): one FIFO, add at the tail, dispatch the head. Only the block
 * layer's generic back merging. Reads and writes, sync and async, are treated alike.
 * (The legacy layer's elv_dispatch_sort only reorders requests already on the dispatch list;
 * noop moves one at a time when the driver asks, so the order is the FIFO's.)
 */
export class Noop implements IoScheduler {
  readonly frontMerges = false
  private readonly fifo = new RequestFifo()

  insert(rq: Request, _now: SimTime): void {
    this.fifo.push(rq)
  }

  dispatch(_now: SimTime): Request | undefined {
    return this.fifo.shift() ?? undefined
  }

  hasWork(): boolean {
    return this.fifo.size > 0
  }

  completed(_rq: Request, _now: SimTime): void {}

  mergedRequests(_rq: Request, next: Request): void {
    this.fifo.remove(next)
  }
}

export const noop: SchedulerType = {
  name: 'noop',
  aliases: [],
  era: 'Linux 2.5.x–4.20 (legacy block layer; blk-mq has `none` instead)',
  layer: 'legacy',
  summary: 'First come, first served, with merging.',
  explanation:
    'noop does no reordering at all, so it costs nothing and leaves ordering to a device that does it better ' +
    '(flash, NVMe, RAID controllers, disks with deep NCQ). It wins on fast devices and with a single stream. ' +
    'It loses badly on a single rotating disk with competing streams: a dependent reader waits behind every ' +
    'write the flusher queued, and interleaved streams turn sequential work into seeks.',
  tunables: [],
  usesIoPriority: false,
  create: () => new Noop(),
}
