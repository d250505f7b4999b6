import { release } from 'node:os'
import { join } from 'node:path'
import { diskOfFile, readBackingFacts } from './backing-facts'
import type { BackingFacts } from './backing-facts'
import { listSys, readSys, sysBlockDir } from './sysfs'

/**
 * What the kernel says of a block device's queue (/sys/block/X/queue, mq/, loop/): the attributes a
 * device preset carries, since the schedulers' decisions depend on them (BFQ and CFQ idle on a
 * rotational device; tags bound what a scheduler may hand down), and what the device is.
 */
export interface QueueFacts {
  device: string
  /** loop, virtio, device-mapper, nvme, scsi, or other — from the name and sysfs. */
  kind: 'loop' | 'virtio' | 'device-mapper' | 'nvme' | 'scsi' | 'other'
  rotational: boolean
  /**
   * queue/nr_requests under an elevator (its sched_tags). Read under none, the file says the
   * driver tags instead; an elevator then gets the kernel's default, 2 × min(queue depth, 128).
   */
  nrRequests: number | null
  /** Driver tags per hardware queue (mq/0/nr_tags): the device's queue depth. */
  queueDepth: number | null
  hwQueues: number
  maxSectorsKiB: number | null
  /** queue/max_segments: pages one request may carry. */
  maxSegments: number | null
  readAheadKiB: number | null
  logicalBlockSize: number | null
  /** queue/write_cache reads "write back" (null: unreadable). */
  writeCache: boolean | null
  /** queue/wbt_lat_usec: writeback throttling's target, µs (0: off; null: no such file). */
  wbtLatUs: number | null
  /**
   * The completions per interrupt of the virtio disk that serves the requests (this one, or the
   * one under a loop device) over a deep queue (virtio-signal.ts); set by the fingerprint.
   */
  signal?: {
    disk: string
    perInterrupt: number
    during: string
    /** The CPU that took IRQ_CPU_SHARE or more of those interrupts, and its share (absent: none did). */
    irqCpu?: { cpu: number; share: number }
  }
  /**
   * What handing a request to the disk under a loop device costs its worker, traced on a scratch
   * loop device of the probe's own (dispatch-probe.ts); set by the fingerprint.
   */
  dispatch?: {
    disk: string
    /** µs notifying the disk when it had no request in hand. */
    notifyUs: number
    /** µs per memory segment beyond a request's first (null: not seen). */
    segmentUs: number | null
    /** What the figures are the means of, for the source. */
    said: string
  }
  /**
   * A loop device's backing file, whether it uses direct I/O, and the disk the file lives on (null:
   * none — tmpfs, or unreadable) with the kernel release its schedulers' rules follow.
   */
  loop?: { backingFile: string | null; directIo: boolean; disk?: BackingFacts | null; kernel?: string }
  /** Where each fact was read. */
  sources: Record<string, string>
}

const num = (s: string | null): number | null => {
  if (s === null) return null
  const n = Number(s.trim())
  return Number.isFinite(n) ? n : null
}

export function kindOf(device: string): QueueFacts['kind'] {
  if (/^loop\d+$/.test(device)) return 'loop'
  if (/^vd[a-z]+$/.test(device) || /^xvd[a-z]+$/.test(device)) return 'virtio'
  if (/^dm-\d+$/.test(device) || /^md\d+$/.test(device)) return 'device-mapper'
  if (/^nvme\d+n\d+$/.test(device)) return 'nvme'
  if (/^sd[a-z]+$/.test(device)) return 'scsi'
  return 'other'
}

export function readQueueFacts(device: string): QueueFacts {
  const dir = sysBlockDir(device)
  const q = (f: string): string | null => readSys(join(dir, 'queue', f))
  const mq = listSys(join(dir, 'mq')).filter((x) => /^\d+$/.test(x))
  const tags = mq.length > 0 ? num(readSys(join(dir, 'mq', mq[0], 'nr_tags'))) : null
  const kind = kindOf(device)
  const active = /\[(.+?)\]/.exec(q('scheduler') ?? '')?.[1] ?? null
  const nrFile = num(q('nr_requests'))
  // block/blk-mq-sched.c (6.x) blk_mq_init_sched: q->nr_requests = 2 * min(queue_depth, BLKDEV_DEFAULT_RQ)
  const underNone = active === 'none' && tags !== null
  const nrRequests = underNone ? 2 * Math.min(tags, 128) : nrFile
  const facts: QueueFacts = {
    device,
    kind,
    rotational: q('rotational') === '1',
    nrRequests,
    queueDepth: tags,
    hwQueues: mq.length,
    maxSectorsKiB: num(q('max_sectors_kb')),
    maxSegments: num(q('max_segments')),
    readAheadKiB: num(q('read_ahead_kb')),
    logicalBlockSize: num(q('logical_block_size')),
    writeCache: q('write_cache') === null ? null : q('write_cache') === 'write back',
    wbtLatUs: num(q('wbt_lat_usec')),
    sources: {
      rotational: `/sys/block/${device}/queue/rotational`,
      nrRequests: underNone
        ? `/sys/block/${device}/queue/nr_requests reads ${nrFile} under none (the driver tags); an elevator gets 2 × min(${tags}, 128) (block/blk-mq-sched.c blk_mq_init_sched, 6.x)`
        : `/sys/block/${device}/queue/nr_requests (under ${active ?? 'its scheduler'})`,
      queueDepth: `/sys/block/${device}/mq/${mq[0] ?? 0}/nr_tags (${mq.length} hardware queue${mq.length === 1 ? '' : 's'})`,
      maxTransferKiB: `/sys/block/${device}/queue/max_sectors_kb`,
      maxSegments: `/sys/block/${device}/queue/max_segments`,
      readAheadKiB: `/sys/block/${device}/queue/read_ahead_kb`,
      writeCache: `/sys/block/${device}/queue/write_cache`,
      wbtLatUs: `/sys/block/${device}/queue/wbt_lat_usec`,
      kind: `the device name ${device}`,
    },
  }
  if (kind === 'loop') {
    const backing = readSys(join(dir, 'loop', 'backing_file'))
    const disk = backing === null ? null : diskOfFile(backing)
    facts.loop = {
      backingFile: backing,
      directIo: readSys(join(dir, 'loop', 'dio')) === '1',
      disk: disk === null ? null : readBackingFacts(disk),
      kernel: release(),
    }
    facts.sources.kind = `/sys/block/${device}/loop/backing_file: ${backing ?? 'unknown'}${facts.loop.directIo ? ', direct I/O' : ''}`
  }
  return facts
}
