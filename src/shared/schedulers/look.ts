import type { SchedulerType } from './scheduler'
import { Elevator, TEXTBOOK_ERA } from './textbook'

/** LOOK: the elevator that turns at the last request in its direction, not at the disk's edge. */
class Look extends Elevator {
  protected reverse(): void {
    this.up = !this.up
  }
}

export const look: SchedulerType = {
  name: 'look',
  aliases: [],
  era: TEXTBOOK_ERA,
  layer: 'legacy',
  summary: 'Elevator that reverses at the last request instead of the disk edge.',
  explanation:
    'LOOK sweeps the head one way serving every request in its path and turns around as soon as nothing lies ' +
    'further on, which is how SCAN is implemented in practice. In the textbook example (head at 53 moving ' +
    'down) it serves 37, 14, then 65 … 183 for 208 cylinders, against SCAN’s 236. Like SCAN, no request waits ' +
    'more than about two sweeps, so nothing starves; requests just behind the head wait longest, and the ' +
    'middle of the disk is passed twice as often as the edges.',
  tunables: [],
  usesIoPriority: false,
  create: () => new Look(),
}
