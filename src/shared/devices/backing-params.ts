import { SECTOR } from '../block/types'
import { findScheduler } from '../schedulers/registry'
import { resolveParams } from '../util/params'
import type { ParamIssue, ParamSpec, ParamValues } from '../util/params'

/**
 * The block device under a stacked virtual device (a loop device's backing file's disk), as data:
 * its scheduler with its tunables, its tags and its driver's ring. `iosched-lab fingerprint`
 * reads them from sysfs; see backing-stack.ts for what they do.
 */
export const BACKING_PARAMS: readonly ParamSpec[] = [
  {
    name: 'backingScheduler',
    kind: 'enum',
    default: '',
    unit: '',
    meaning:
      "The I/O scheduler of the device under this one (a loop device's backing file's disk), which orders what this device hands down ('' = not modelled: the backing device is part of the measured service)",
    values: ['', 'none', 'mq-deadline', 'kyber', 'bfq'],
    source: '/sys/block/B/queue/scheduler of the backing device',
  },
  {
    name: 'backingTunables',
    kind: 'string',
    default: '',
    unit: 'name=value, …',
    meaning:
      'The backing scheduler\'s tunables where they differ from its defaults (/sys/block/B/queue/iosched/*), e.g. "fifo_batch=16, writes_starved=2"',
  },
  {
    name: 'backingDevice',
    kind: 'string',
    default: '',
    unit: '',
    meaning: 'The backing device’s name (reported: where the backing scheduler and ring were read)',
  },
  {
    name: 'backingRotational',
    kind: 'bool',
    default: false,
    unit: '',
    meaning: 'queue/rotational of the backing device (BFQ and CFQ idle on a rotational device)',
  },
  {
    name: 'backingNrRequests',
    kind: 'int',
    default: 256,
    unit: 'requests',
    meaning: "queue/nr_requests of the backing device (its scheduler's tags)",
    min: 1,
    max: 65535,
  },
  {
    name: 'backingQueueDepth',
    kind: 'int',
    default: 128,
    unit: 'commands',
    meaning: 'Driver tags of the backing device (mq/0/nr_tags): requests its driver holds at once',
    min: 1,
    max: 65535,
  },
  {
    name: 'backingMaxTransferKiB',
    kind: 'int',
    default: 4096,
    unit: 'KiB',
    meaning: 'queue/max_sectors_kb of the backing device: how large its merged requests grow',
    min: 4,
    max: 1048576,
  },
  {
    name: 'ringSlots',
    kind: 'int',
    default: 0,
    unit: 'descriptors',
    meaning:
      "Descriptors of the backing device's virtio ring when it has no indirect descriptors (each request takes its segments plus two); 0 = no such bound (indirect descriptors, or not virtio)",
    min: 0,
    max: 65536,
    source:
      'drivers/block/virtio_blk.c (6.x): without VIRTIO_RING_F_INDIRECT_DESC a request takes one descriptor per segment plus its header and status; the device offers seg_max = queue size − 2, read back as queue/max_segments, so the ring is max_segments + 2',
  },
  {
    name: 'backingIoprio',
    kind: 'enum',
    default: 'request',
    unit: '',
    meaning:
      "The I/O priority of what the loop worker hands down: 'request' — each upper request's own (an ionice'd process's class reaches the backing device's scheduler, whose mq-deadline serves RT before BE before IDLE); 'none' — class NONE for all (older kernels)",
    values: ['request', 'none'],
    source:
      'drivers/block/loop.c lo_rw_aio: cmd->iocb.ki_ioprio = req_get_ioprio(rq) since commit 1fdb8188c3d5 "loop: aio inherit the ioprio of original request" (Linux 6.15, April 2025, backported to the stable series), IOPRIO_PRIO_VALUE(IOPRIO_CLASS_NONE, 0) before; iomap\'s direct I/O gives the kiocb\'s priority to its bios (fs/iomap/direct-io.c: bio->bi_ioprio = dio->iocb->ki_ioprio)',
  },
]

/** The backing device's configuration in simulator units (null: not modelled). */
export interface BackingConfig {
  readonly name: string
  readonly scheduler: string
  readonly tunables: ParamValues
  readonly rotational: boolean
  readonly nrRequests: number
  readonly queueDepth: number
  readonly maxTransferSectors: number
  readonly ringSlots: number
  /** The upper request's I/O priority goes down with it (backingIoprio 'request'). */
  readonly inheritIoprio: boolean
}

/**
 * Validated values → the backing configuration, or null when none is modelled; a bad tunable goes
 * to `issues` at `path`.
 */
export function backingConfig(v: ParamValues, issues: ParamIssue[], path: string): BackingConfig | null {
  const name = (v.backingScheduler as string | undefined) ?? ''
  if (name === '') return null
  const type = findScheduler(name)!
  const at = (k: string): string => (path ? `${path}.${k}` : k)
  const text = parseTunables((v.backingTunables as string | undefined) ?? '', at('backingTunables'), issues)
  // sysfs writes every value as text: a number where the tunable is one, the text otherwise
  const given: Record<string, unknown> = {}
  for (const [k, x] of Object.entries(text)) {
    const kind = type.tunables.find((p) => p.name === k)?.kind
    const n = Number(x)
    given[k] =
      kind === 'bool'
        ? x === '1' || x === 'true'
        : kind !== 'enum' && kind !== 'string' && Number.isFinite(n)
          ? n
          : x
  }
  const tunables = resolveParams(type.tunables, given, at('backingTunables'), issues)
  return {
    name: ((v.backingDevice as string | undefined) ?? '') || 'backing',
    scheduler: type.name,
    tunables,
    rotational: (v.backingRotational as boolean | undefined) ?? false,
    nrRequests: v.backingNrRequests as number,
    queueDepth: v.backingQueueDepth as number,
    maxTransferSectors: Math.round(((v.backingMaxTransferKiB as number) * 1024) / SECTOR),
    ringSlots: v.ringSlots as number,
    inheritIoprio: ((v.backingIoprio as string | undefined) ?? 'request') === 'request',
  }
}

/** "name=value, …" → an object of texts; a malformed entry goes to `issues`. */
export function parseTunables(text: string, path: string, issues: ParamIssue[]): Record<string, string> {
  const out: Record<string, string> = {}
  if (text.trim() === '') return out
  for (const [i, part] of text.split(',').entries()) {
    const m = /^\s*([a-z_][a-z0-9_]*)\s*=\s*(\S+)\s*$/i.exec(part)
    if (!m) {
      issues.push({
        path,
        message: `entry ${i + 1} ("${part.trim()}"): expected "name=value", e.g. "fifo_batch=16"`,
      })
      return {}
    }
    out[m[1]] = m[2]
  }
  return out
}
