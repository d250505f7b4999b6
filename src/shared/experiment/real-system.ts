// The machine and device a real run measured, as the kernel described them during the run (the
// `real.system` block of a real RunResult, docs/run-json.md), and the same facts as rows of text
// for the app and the reports. A fact that could not be read is null and shows as "unknown".
import type { RunResult } from './result'

/** A block device as sysfs describes it. */
export interface RealDeviceFacts {
  name: string
  /** device/model (SCSI, NVMe …); null where the driver has none (virtio, loop). */
  model: string | null
  /** device/vendor. */
  vendor: string | null
  /** device/firmware_rev (NVMe) or device/rev (SCSI). */
  firmware: string | null
  sizeBytes: number | null
  rotational: boolean | null
  /** The active scheduler (queue/scheduler in brackets). */
  scheduler: string | null
  /** queue/ attributes as the files say them (nr_requests, read_ahead_kb …) and mq/0/nr_tags. */
  queue: Record<string, string>
}

/** The file system a file lives on (/proc/self/mountinfo). */
export interface FileSystemFacts {
  type: string
  source: string
  mountPoint: string
  /** The mount's options (rw, relatime …). */
  options: string
  /** The file system's own options (errors=remount-ro …). */
  superOptions: string
}

export interface RealSystemInfo {
  /** uname -r, uname -v, uname -m. */
  kernel: { release: string; version: string | null; arch: string }
  cpu: { model: string | null; count: number }
  memory: { totalBytes: number | null; availableBytes: number | null }
  /** The device the engine ran on. */
  device: RealDeviceFacts
  /**
   * A loop device's backing file (a scratch device's file): its file system and mount options and
   * the disk it lives on; null for a whole device.
   */
  backing: {
    file: string | null
    directIo: boolean | null
    fileSystem: FileSystemFacts | null
    disk: RealDeviceFacts | null
  } | null
  /**
   * A test file in a directory the user picked (a file target): the file, its file system and
   * mount options, and the file system's own block device (a partition, a device-mapper device …,
   * where `device` is the disk whose scheduler was switched). Absent for device targets.
   */
  file?: { path: string; fileSystem: FileSystemFacts | null; blockDevice: string | null }
}

const UNKNOWN = 'unknown'
const text = (v: string | null | undefined): string =>
  v === null || v === undefined || v === '' ? UNKNOWN : v

function bytes(n: number | null): string {
  if (n === null) return UNKNOWN
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let v = n
  let u = 0
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024
    u++
  }
  return `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[u]}`
}

/** The queue attributes shown, in this order, with their names as sysfs has them. */
const QUEUE_SHOWN = [
  'nr_requests',
  'nr_tags',
  'hw_queues',
  'max_sectors_kb',
  'max_segments',
  'read_ahead_kb',
  'logical_block_size',
  'physical_block_size',
  'write_cache',
  'wbt_lat_usec',
]

function deviceRows(prefix: string, d: RealDeviceFacts): [string, string][] {
  const rows: [string, string][] = [
    [`${prefix}`, d.name],
    [`${prefix} model`, `${text(d.model)}${d.vendor ? ` (vendor ${d.vendor})` : ''}`],
    [`${prefix} firmware`, text(d.firmware)],
    [`${prefix} size`, bytes(d.sizeBytes)],
    [`${prefix} rotational`, d.rotational === null ? UNKNOWN : d.rotational ? 'yes' : 'no'],
    [`${prefix} scheduler`, text(d.scheduler)],
  ]
  const q = QUEUE_SHOWN.filter((k) => d.queue[k] !== undefined)
    .map((k) => `${k} ${d.queue[k]}`)
    .join(', ')
  rows.push([`${prefix} queue`, q || UNKNOWN])
  return rows
}

const fileSystemText = (fs: FileSystemFacts): string =>
  `${fs.type} on ${fs.source}, mounted at ${fs.mountPoint} (${fs.options}${fs.superOptions ? `; ${fs.superOptions}` : ''})`

/** One run's system as (fact, value) rows. */
export function systemRows(s: RealSystemInfo): [string, string][] {
  const rows: [string, string][] = [
    ['kernel', `${s.kernel.release}${s.kernel.version ? ` ${s.kernel.version}` : ''} (${s.kernel.arch})`],
    ['CPU', `${s.cpu.count} × ${text(s.cpu.model)}`],
    [
      'memory',
      `${bytes(s.memory.totalBytes)}${s.memory.availableBytes !== null ? `, ${bytes(s.memory.availableBytes)} available at the run` : ''}`,
    ],
    ...deviceRows('device', s.device),
  ]
  if (s.file) {
    const fs = s.file.fileSystem
    rows.push(['test file', s.file.path])
    rows.push(['file system', fs ? fileSystemText(fs) : UNKNOWN])
    if (s.file.blockDevice && s.file.blockDevice !== s.device.name)
      rows.push([
        'file system device',
        `${s.file.blockDevice} (on ${s.device.name}, whose scheduler is switched)`,
      ])
  }
  if (s.backing) {
    const b = s.backing
    rows.push([
      'backing file',
      `${text(b.file)}${b.directIo === null ? '' : b.directIo ? ' (direct I/O)' : ' (buffered: its page cache sits under the device)'}`,
    ])
    const fs = b.fileSystem
    rows.push(['file system', fs ? fileSystemText(fs) : UNKNOWN])
    if (b.disk) rows.push(...deviceRows('disk under it', b.disk))
    else rows.push(['disk under it', 'none (a file system without a block device) or unknown'])
  }
  return rows
}

/** The `real.system` of a run, if it has one (real runs from before it was recorded do not). */
export const systemOf = (r: RunResult): RealSystemInfo | null =>
  r.source === 'real' ? ((r as { real?: { system?: RealSystemInfo } }).real?.system ?? null) : null

/**
 * The system of a set of real runs as rows: a fact the runs agree on once; one that differs (the
 * queue's nr_requests follows the scheduler; available memory moves) with each run's value after
 * its label. Empty when no run recorded it.
 */
export function systemRowsOf(runs: readonly RunResult[]): [string, string][] {
  const each = runs
    .map((r) => ({ r, s: systemOf(r) }))
    .filter((x): x is { r: RunResult; s: RealSystemInfo } => x.s !== null)
    .map(({ r, s }) => ({ name: `${r.label} #${r.repetition + 1}`, rows: systemRows(s) }))
  if (each.length === 0) return []
  const order: string[] = []
  const values = new Map<string, { name: string; value: string }[]>()
  for (const e of each)
    for (const [k, v] of e.rows) {
      if (!values.has(k)) {
        order.push(k)
        values.set(k, [])
      }
      values.get(k)!.push({ name: e.name, value: v })
    }
  return order.map((k) => {
    const vs = values.get(k)!
    if (k.endsWith(' queue')) return [k, mergeQueue(vs, each.length)]
    return [k, merge(vs, each.length)]
  })
}

/** One value when every run had it; else each value with the runs that had it. */
function merge(vs: { name: string; value: string }[], runs: number): string {
  const distinct = [...new Set(vs.map((v) => v.value))]
  if (distinct.length === 1 && vs.length === runs) return distinct[0]
  return distinct
    .map(
      (d) =>
        `${d} (${vs
          .filter((v) => v.value === d)
          .map((v) => v.name)
          .join(', ')})`,
    )
    .join('; ')
}

/** A queue row (`nr_requests 64, read_ahead_kb 128 …`) merged per attribute: only those that differ per run. */
function mergeQueue(vs: { name: string; value: string }[], runs: number): string {
  const attrs = new Map<string, { name: string; value: string }[]>()
  for (const v of vs)
    for (const item of v.value === UNKNOWN ? [] : v.value.split(', ')) {
      const at = item.indexOf(' ')
      const k = item.slice(0, at)
      if (!attrs.has(k)) attrs.set(k, [])
      attrs.get(k)!.push({ name: v.name, value: item.slice(at + 1) })
    }
  if (attrs.size === 0) return UNKNOWN
  return [...attrs.entries()].map(([k, a]) => `${k} ${merge(a, runs)}`).join(', ')
}
