import type { SchedulerType } from '../scheduler'
import { Row } from './row-2014'
import { Row2012 } from './row-2012'
import { rowConfig, rowTunables } from './tunables'

export { rowTunables, rowConfig, ROW_2012_PRESET } from './tunables'
export type { RowConfig } from './tunables'

export const row: SchedulerType = {
  name: 'row',
  aliases: [],
  era: 'Android/CodeAurora kernels 3.4–3.10 (2012–2014), never merged upstream',
  layer: 'legacy',
  summary: 'Read Over Write: seven FIFO queues by class and kind, weighted round robin favouring reads.',
  explanation:
    'ROW was written for phones on eMMC, where what the user waits for is a read (an app starting, a page ' +
    'loading) and writes can wait. Requests go to one of seven plain FIFOs by I/O class (RT, BE, IDLE) and ' +
    'kind (read, sync write, async write); a weighted round robin gives regular reads 75 dispatches per ' +
    '4 sync and 4 async writes, RT queues come first, and when a frequently used read queue empties the ' +
    'device is left idle up to 10 ms for its next read. It wins on flash with a foreground reader against ' +
    'background writeback: read latency stays low and there is no seeking to protect. It loses on rotating ' +
    'disks (no sector order at all, so interleaved streams seek) and for write-heavy work, where the read ' +
    'quantum and idling hold writes back; LOW (IDLE) requests wait up to 10 000 dispatches.',
  tunables: rowTunables,
  usesIoPriority: true,
  create: (t, ctx) => {
    const cfg = rowConfig(t)
    return cfg.version === '2012' ? new Row2012(cfg, ctx) : new Row(cfg, ctx)
  },
}
