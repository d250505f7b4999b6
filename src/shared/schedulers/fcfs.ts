import { Noop } from './noop'
import type { SchedulerType } from './scheduler'
import { TEXTBOOK_ERA } from './textbook'

/**
 * First come, first served: one FIFO, dispatched in arrival order, and no merging at all — the
 * textbook baseline: noop without noop's back merges (allowMerge refuses every merge).
 */
class Fcfs extends Noop {
  allowMerge(): boolean {
    return false
  }
}

export const fcfs: SchedulerType = {
  name: 'fcfs',
  aliases: [],
  era: TEXTBOOK_ERA,
  layer: 'legacy',
  summary: 'First come, first served: arrival order, no merging.',
  explanation:
    'FCFS serves requests in the order they arrive and never combines them. It is fair and no request ever ' +
    'waits behind a later one, but the head goes wherever the next request happens to be: in the textbook ' +
    'example (head at cylinder 53; queue 98, 183, 37, 122, 14, 124, 65, 67) it travels 640 cylinders where ' +
    'SSTF travels 236. It is fine for one sequential stream or a device with no seek (flash), and the worst ' +
    'choice for competing streams on a disk. Unlike noop it does not even merge adjacent requests, so a ' +
    'stream of small sequential writes reaches the device one small command at a time.',
  tunables: [],
  usesIoPriority: false,
  create: () => new Fcfs(),
}
