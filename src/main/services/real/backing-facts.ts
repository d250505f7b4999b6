import { realpathSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { findScheduler } from '../../../shared/schedulers/registry'
import type { ParamValues } from '../../../shared/util/params'
import type { QueueFacts } from './queue-facts'
import { listSys, readSys, sysBlockDir } from './sysfs'

/**
 * The disk under a loop device's backing file, as the kernel describes it: its scheduler and that
 * scheduler's tunables, its tags, its transfer limits and, for a virtio disk, whether its ring has
 * indirect descriptors. What the loop device hands down meets this queue (devices/backing-stack.ts).
 */
export interface BackingFacts {
  device: string
  /** The active scheduler (queue/scheduler in brackets), or null when unreadable. */
  scheduler: string | null
  /** queue/iosched/* as text. */
  tunables: Record<string, string>
  rotational: boolean
  nrRequests: number | null
  queueDepth: number | null
  maxSectorsKiB: number | null
  maxSegments: number | null
  /** virtio: VIRTIO_RING_F_INDIRECT_DESC (feature bit 28) offered and taken; null: not virtio. */
  indirectDescriptors: boolean | null
  sources: Record<string, string>
}

/** Feature bit 28 of a virtio device (include/uapi/linux/virtio_ring.h VIRTIO_RING_F_INDIRECT_DESC). */
const INDIRECT_DESC_BIT = 28

/**
 * The whole disk a file lives on: its st_dev names the (partition's) block device in
 * /sys/dev/block/MAJ:MIN; a partition's parent directory is its disk. Null for a file on a
 * file system without a block device (tmpfs, overlay on tmpfs, NFS).
 */
export function diskOfFile(file: string, devRoot = '/sys/dev/block'): string | null {
  let dev: number
  try {
    dev = statSync(file).dev
  } catch {
    return null
  }
  // Linux's dev_t encoding (new_decode_dev): major in bits 8–19, minor in bits 0–7 and 20–31
  const major = (dev >> 8) & 0xfff
  const minor = (dev & 0xff) | ((dev >> 12) & 0xfff00)
  let dir: string
  try {
    dir = realpathSync(join(devRoot, `${major}:${minor}`))
  } catch {
    return null
  }
  return readSys(join(dir, 'partition')) !== null ? basename(dirname(dir)) : basename(dir)
}

export function readBackingFacts(device: string): BackingFacts {
  const dir = sysBlockDir(device)
  const q = (f: string): string | null => readSys(join(dir, 'queue', f))
  const num = (s: string | null): number | null =>
    s === null || !Number.isFinite(Number(s)) ? null : Number(s)
  const tunables: Record<string, string> = {}
  for (const t of listSys(join(dir, 'queue', 'iosched'))) {
    const v = readSys(join(dir, 'queue', 'iosched', t))
    if (v !== null) tunables[t] = v.trim()
  }
  const mq = listSys(join(dir, 'mq')).filter((x) => /^\d+$/.test(x))
  const features = readSys(join(dir, 'device', 'features'))
  const virtio = /^vd[a-z]+$/.test(device) && features !== null && /^[01]+$/.test(features)
  return {
    device,
    scheduler: /\[(.+?)\]/.exec(q('scheduler') ?? '')?.[1] ?? null,
    tunables,
    rotational: q('rotational') === '1',
    nrRequests: num(q('nr_requests')),
    queueDepth: mq.length > 0 ? num(readSys(join(dir, 'mq', mq[0], 'nr_tags'))) : null,
    maxSectorsKiB: num(q('max_sectors_kb')),
    maxSegments: num(q('max_segments')),
    indirectDescriptors: virtio ? features![INDIRECT_DESC_BIT] === '1' : null,
    sources: {
      backingScheduler: `/sys/block/${device}/queue/scheduler`,
      backingTunables: `/sys/block/${device}/queue/iosched/*`,
      backingRotational: `/sys/block/${device}/queue/rotational`,
      backingNrRequests: `/sys/block/${device}/queue/nr_requests`,
      backingQueueDepth: `/sys/block/${device}/mq/${mq[0] ?? 0}/nr_tags`,
      backingMaxTransferKiB: `/sys/block/${device}/queue/max_sectors_kb`,
    },
  }
}

/**
 * The virtual model's backing values for these facts, with where each came from; {} when the
 * backing disk's scheduler is not one the lab models. `kernel` (uname -r) picks the version rules of
 * the scheduler (mq-deadline's batch rule from 6.8).
 */
export function backingValues(
  f: BackingFacts,
  kernel: string,
): { values: ParamValues; sources: Record<string, string> } {
  const type = f.scheduler === null ? undefined : findScheduler(f.scheduler)
  if (type === undefined || !['none', 'mq-deadline', 'kyber', 'bfq'].includes(type.name))
    return { values: {}, sources: {} }
  // the tunables the model knows, as sysfs shows them (values it would not take are left out)
  const known = new Set(type.tunables.map((t) => t.name))
  const given = Object.entries(f.tunables).filter(([k, v]) => known.has(k) && /^[\w.-]+$/.test(v))
  const m = /^(\d+)\.(\d+)/.exec(kernel)
  const version = m ? Number(m[1]) * 1000 + Number(m[2]) : 0
  if (type.name === 'mq-deadline') {
    if (version >= 6008) given.push(['batch_rule', '6.8'])
    // whose reservation of tags for sync reads (mq-deadline.ts async_depth_rule)
    const rule = version >= 6017 ? '6.17' : version >= 6010 ? '6.10' : version === 6008 ? '6.8' : '5.14'
    given.push(['async_depth_rule', rule])
  }
  const values: ParamValues = {
    backingScheduler: type.name,
    backingTunables: given.map(([k, v]) => `${k}=${v}`).join(', '),
    backingDevice: f.device,
    backingRotational: f.rotational,
    ...(f.nrRequests ? { backingNrRequests: f.nrRequests } : {}),
    ...(f.queueDepth ? { backingQueueDepth: f.queueDepth } : {}),
    ...(f.maxSectorsKiB ? { backingMaxTransferKiB: f.maxSectorsKiB } : {}),
  }
  const sources: Record<string, string> = {
    ...f.sources,
    backingDevice: 'the disk the loop device’s backing file is on',
  }
  if (type.name === 'mq-deadline')
    sources.backingTunables += `; batch_rule and async_depth_rule by kernel ${kernel} (mq-deadline.ts names each rule's kernels)`
  if (f.indirectDescriptors === false && f.maxSegments) {
    values.ringSlots = f.maxSegments + 2
    sources.ringSlots = `/sys/block/${f.device}/device/features: no VIRTIO_RING_F_INDIRECT_DESC (bit 28); the device offers seg_max = ring size − 2, read back as queue/max_segments ${f.maxSegments} (drivers/block/virtio_blk.c)`
  }
  return { values, sources }
}

/**
 * A loop device's backing disk as the model's backing values: its scheduler, tags and ring as
 * sysfs says; none where the backing file is on no block device (or its scheduler is not one the
 * lab models). Other kinds: nothing (the service includes whatever is below).
 */
export function backingOf(facts: QueueFacts): { values: ParamValues; sources: Record<string, string> } {
  if (facts.kind !== 'loop' || facts.loop === undefined) return { values: {}, sources: {} }
  const disk = facts.loop.disk
  const fitted = disk ? backingValues(disk, facts.loop.kernel ?? '') : { values: {}, sources: {} }
  if (fitted.values.backingScheduler !== undefined) {
    // without indirect descriptors the ring is set; otherwise no ring bound
    if (fitted.values.ringSlots === undefined) {
      fitted.values.ringSlots = 0
      fitted.sources.ringSlots = disk?.indirectDescriptors
        ? `/sys/block/${disk.device}/device/features: indirect descriptors — a request takes one descriptor`
        : `${disk?.device ?? 'the backing disk'} is not a virtio disk: no ring bound`
    }
    return fitted
  }
  return {
    values: { backingScheduler: '', ringSlots: 0 },
    sources: {
      backingScheduler: disk
        ? `${disk.device}'s scheduler ${disk.scheduler ?? '(unreadable)'} is not one the lab models: the backing disk stays part of the measured service`
        : `the backing file ${facts.loop.backingFile ?? ''} is on no block device the lab can read: part of the measured service`,
      ringSlots: 'no backing queue modelled',
    },
  }
}
