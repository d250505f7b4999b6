import type { Request } from '../block/types'
import type { SchedulerType } from './scheduler'
import { HeadScheduler, TEXTBOOK_ERA } from './textbook'

/**
 * Shortest seek time first: the queued request starting nearest the head (the end of the last
 * dispatched request), in either direction; a tie goes upward. Distance is in sectors, a stand-in
 * for seek time.
 */
class Sstf extends HeadScheduler {
  protected pick(): Request {
    const up = this.sorted.ceiling(this.head)
    const down = this.sorted.floor(this.head)
    if (up === null) return down!
    if (down === null) return up
    return up.sector - this.head <= this.head - down.sector ? up : down
  }
}

export const sstf: SchedulerType = {
  name: 'sstf',
  aliases: [],
  era: TEXTBOOK_ERA,
  layer: 'legacy',
  summary: 'Shortest seek first: always the request nearest the head.',
  explanation:
    'SSTF always moves the head to the nearest pending request, like shortest-job-first for the disk. In the ' +
    'textbook example it cuts head travel from 640 cylinders (FCFS) to 236, and it wins on throughput when ' +
    'requests cluster. It loses on fairness: as long as new requests keep arriving near the head, a request ' +
    'far away is never the nearest and can wait forever (starvation), and it is not even optimal — going to ' +
    '37 and 14 first, then up, would save more. Requests in the middle of the disk are favoured over those at ' +
    'the edges.',
  tunables: [],
  usesIoPriority: false,
  create: () => new Sstf(),
}
