import type { SchedulerType, SchedulerContext } from './scheduler'
import { Elevator, TEXTBOOK_ERA } from './textbook'

/**
 * SCAN, the elevator: sweep to the end of the disk, then reverse. The trip to the edge is modelled
 * as the turning point: on reversal the head is put at the edge (capacity going up, 0 going
 * down) and the sweep continues from there. The device moves its own head, so the scheduler
 * cannot make it travel to an empty edge; the dispatch order is what this model reproduces, and
 * it equals LOOK's for the same queue — only the head travel the textbook counts differs.
 */
class Scan extends Elevator {
  constructor(private readonly capacity: number) {
    super()
  }

  protected reverse(): void {
    this.head = this.up ? this.capacity : 0
    this.up = !this.up
  }
}

export const scan: SchedulerType = {
  name: 'scan',
  aliases: [],
  era: TEXTBOOK_ERA,
  layer: 'legacy',
  summary: 'The elevator: sweep to the disk edge serving requests in passing, then reverse.',
  explanation:
    'SCAN moves the head from one end of the disk to the other, serving requests as it passes them, then ' +
    'reverses. In the textbook example (head at 53 moving toward 0) it serves 37 and 14, runs on to cylinder ' +
    '0, then serves 65 … 183: 236 cylinders. Every request is served within about two sweeps, so nothing ' +
    'starves even when new requests keep arriving near the head, and throughput stays close to SSTF under ' +
    'heavy load. It loses on response time for requests just behind the head, and the edges of the disk wait ' +
    'longer than the middle. (Here the turn happens when nothing lies ahead, so the dispatch order equals ' +
    'LOOK’s; the trip to the edge only shows in the head travel the textbook counts.)',
  tunables: [],
  usesIoPriority: false,
  create: (_t, ctx: SchedulerContext) => new Scan(ctx.deviceInfo.capacitySectors),
}
