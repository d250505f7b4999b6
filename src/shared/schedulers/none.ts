import { Noop } from './noop'
import type { SchedulerType } from './scheduler'

/**
 * blk-mq without an I/O scheduler ("none", block/blk-mq.c; the default for fast and multi-queue
 * devices since 3.13, for every blk-mq device without an elevator chosen). No reordering and no
 * scheduler queue: a request is allocated straight from the hardware queue's driver tags
 * (blk_mq_get_tag on hctx->tags), so at most the device's queue depth of requests exist at once,
 * shared by reads and writes; a submitter finding every tag taken sleeps until a completion frees
 * one (sbitmap wait queues, in turn). Requests the driver cannot take yet wait on the hardware
 * queue's dispatch list in arrival order. So a reader next to a writer that fills the tags waits
 * for a tag behind the writes — unlike the legacy layer's noop, whose reads and writes had
 * request pools of their own (nr_requests each).
 */
export const none: SchedulerType = {
  name: 'none',
  aliases: [],
  era: 'Linux 3.13+ (blk-mq)',
  layer: 'mq',
  driverTags: true,
  summary: 'No scheduler: requests are driver tags, dispatched in arrival order.',
  explanation:
    'none adds nothing to a request’s path, so on fast devices (NVMe, virtual devices) it has the shortest ' +
    'path and the highest IOPS per core. With one reader next to a writer that keeps the device’s tags ' +
    'busy, the reader waits for a tag behind the writes: no priority for reads, no limit on async depth.',
  tunables: [],
  usesIoPriority: false,
  create: () => new Noop(),
}
