import type { Request } from '../block/types'
import type { SchedulerType } from './scheduler'
import { HeadScheduler, TEXTBOOK_ERA } from './textbook'

/**
 * C-LOOK, the circular LOOK: sweep upward only; when nothing lies at or above the head, jump back
 * to the lowest queued request and sweep up again.
 */
class CLook extends HeadScheduler {
  protected pick(): Request {
    return this.sorted.ceiling(this.head) ?? this.sorted.first!
  }
}

export const cLook: SchedulerType = {
  name: 'c-look',
  aliases: [],
  era: TEXTBOOK_ERA,
  layer: 'legacy',
  summary: 'Circular LOOK: sweep upward only, then jump back to the lowest request.',
  explanation:
    'C-LOOK serves requests only while the head moves toward higher sectors; after the highest pending ' +
    'request it jumps back to the lowest one. In the textbook example (head at 53) the order is 65, 67, 98, ' +
    '122, 124, 183, then 14, 37: 322 cylinders counting the jump back. Treating the disk as a circle gives ' +
    'more uniform waiting times than SCAN or LOOK — the edges are not served half as often as the middle — ' +
    'at the price of the return seek. The legacy Linux block layer’s dispatch sort and deadline’s ' +
    'batches sweep upward in the same one-way fashion.',
  tunables: [],
  usesIoPriority: false,
  create: () => new CLook(),
}
