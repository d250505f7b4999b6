import type { SchedulerType } from '../scheduler'
import { cfqTunables, readConfig } from './tunables'
import { CfqV1 } from './v1'
import { CfqV3 } from './v3'

export { cfqTunables } from './tunables'

/**
 * CFQ, Completely Fair Queueing (Jens Axboe, 2003), in two generations chosen by the `version`
 * tunable, so one experiment can list it twice: v1, per-process round robin without idling
 * (v1.ts), and v3, time slices by I/O priority with idling and preemption (v3.ts).
 */
export const cfq: SchedulerType = {
  name: 'cfq',
  aliases: [],
  era: 'Linux 2.6.6–4.20 (default 2.6.18–5.0 on most distributions); v1 as merged in 2.5/2.6.6 (2003), v3 time slices from 2.6.13',
  layer: 'legacy',
  summary:
    'Per-process queues. v1: round robin, a few requests per process per round, no idling. v3: time slices by I/O priority, idling for the active process.',
  explanation:
    'CFQ gives each process its own queue so that one process cannot monopolise the disk. v1 (2003) serves ' +
    'the queues round robin a few requests at a time: a reader gets a turn against a streaming writer, but ' +
    'without idling it still pays a seek for nearly every read. v3 (2.6.13 on) hands the disk to one queue ' +
    'for a time slice (100 ms for a normal sync process, longer for higher priority) and, when a sequential ' +
    'reader briefly has nothing queued, waits up to slice_idle for its next request — so concurrent ' +
    'sequential readers and reads under writeback stream at near full speed, and ionice classes work. It ' +
    'loses where idling is wasted: seeky or many-threaded loads, deep-queue flash and RAID (it caps the ' +
    'active queue at a few requests and idles a device that could serve others), where deadline or noop win.',
  tunables: cfqTunables,
  usesIoPriority: true,
  create: (t, ctx) => {
    const cfg = readConfig(t)
    return cfg.version === 'v1' ? new CfqV1(cfg) : new CfqV3(cfg, ctx)
  },
}
