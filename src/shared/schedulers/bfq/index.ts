import type { SchedulerType } from '../scheduler'
import { Bfq } from './ops'
import { bfqTunables } from './tunables'
import { SCHEDULER_CPU_COST } from '../cpu-cost'

export { Bfq } from './ops'
export type { BfqDebugState, BfqQueueState } from './debug'
export { bfqTunables } from './tunables'

/**
 * BFQ, Budget Fair Queueing (block/bfq-iosched.c and bfq-wf2q.c): the idling, injection and waker
 * decisions as in Linux 6.x (read in torvalds/linux, bfq-iosched.c blob 0f9362b2, a 6.9–6.14
 * kernel), without cgroups, multiple actuators, or queue merging of cooperating processes.
 */
export const bfq: SchedulerType = {
  name: 'bfq',
  aliases: [],
  era: 'Linux 4.12+ (blk-mq); out of tree for 2.6.x–4.x before that',
  layer: 'mq',
  // bfq_init_queue sets ELEVATOR_FLAG_DISABLE_WBT: BFQ's own idling and weights stand in for it
  disablesWbt: true,
  summary:
    'Per-process queues served one at a time with a budget of sectors, chosen by B-WF2Q+ in proportion to weights; idling and weight raising for responsiveness.',
  explanation:
    'BFQ gives each process a queue and hands the device to one queue at a time for a budget of sectors, ' +
    'picking queues with B-WF2Q+ so that every process gets a share of the sectors proportional to its ' +
    'weight (I/O priority), whatever the device’s speed. Budgets grow for sequential readers (long, ' +
    'efficient slots) and shrink for processes that stall; slow, seeky processes are charged time instead. ' +
    'With low_latency, a process that starts after being idle is weight-raised ×30, so applications start ' +
    'and respond quickly while a copy or a writeback storm runs — this is where it wins, on desktops, ' +
    'phones and slow disks. While it keeps the device idle for a process, it injects other queues’ requests ' +
    'into the idle time as far as that does not slow the process down, and at once those of the queue it waits ' +
    'for (a journal thread behind an fsync). It loses on fast NVMe with many parallel random readers: the per-request ' +
    'bookkeeping costs CPU, and idling for one queue (when weights differ, or for a raised queue) leaves ' +
    'a parallel device under-used; throughput-only servers do better with none or mq-deadline.',
  tunables: bfqTunables,
  cpuCost: SCHEDULER_CPU_COST.bfq,
  usesIoPriority: true,
  create: (t, ctx) => new Bfq(t, ctx),
}
