import type { SchedulerType } from '../scheduler'
import { Anticipatory } from './anticipatory'
import { anticipatoryTunables } from './tunables'

export { Anticipatory } from './anticipatory'
export { anticipatoryTunables } from './tunables'

export const anticipatory: SchedulerType = {
  name: 'anticipatory',
  aliases: ['as'],
  era: 'Linux 2.5.x/2.6.0–2.6.32 (default 2.6.0–2.6.17); removed in 2.6.33',
  layer: 'legacy',
  summary:
    'Deadline-style read and write batches, plus anticipation: after a read completes the disk waits a few ms for that process’s next nearby read.',
  explanation:
    'anticipatory (AS) fixes deceptive idleness: a process reading synchronously leaves the queue empty between ' +
    'its requests, and a work-conserving elevator seeks away to another stream. AS keeps per-process think-time ' +
    'and seek statistics and, when the last reader is likely to send a nearby request within antic_expire (~6 ms), ' +
    'leaves the disk idle for it; reads run in 500 ms batches, writes in auto-tuned ~125 ms batches. It wins big ' +
    'for sequential readers competing with each other or with streaming writeback (reads during a large write ' +
    'went from tens of seconds to a few in 2003). It loses on seeky database loads (~10 % slower than deadline: ' +
    'the waits buy nothing), on processes that think longer than antic_expire, and on TCQ/NCQ disks and RAID, ' +
    'where it assumes one head and keeps only one reader’s request in flight.',
  tunables: anticipatoryTunables,
  usesIoPriority: false,
  create: (t, ctx) => new Anticipatory(t, ctx),
}
