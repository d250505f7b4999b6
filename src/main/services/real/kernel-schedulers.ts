import type { ParamValues } from '../../../shared/util/params'

/**
 * The lab's scheduler names and tunables mapped onto today's kernel (blk-mq, Linux ≥ 5.0): which
 * scheduler to write into queue/scheduler, and which files under queue/iosched/ take which value in
 * which unit. Schedulers the kernel no longer has (or never had) are refused with the reason.
 */
export interface KernelTunable {
  /** File under queue/iosched/. */
  sysfs: string
  kind: 'int' | 'bool'
  unit: string
  meaning: string
  min?: number
  /** Convert the lab's value (already in the kernel's unit unless noted) into what the file takes. */
  toSysfs?: (v: number | boolean | string) => { file: string; value: string } | { skip: string }
}

export interface KernelScheduler {
  name: string
  tunables: readonly KernelTunable[]
}

const ms = (sysfs: string, meaning: string): KernelTunable => ({
  sysfs,
  kind: 'int',
  unit: 'ms',
  meaning,
  min: 0,
})

const deadlineFiles: KernelTunable[] = [
  ms('read_expire', 'max time before a read is submitted'),
  ms('write_expire', 'ditto for writes'),
  {
    sysfs: 'writes_starved',
    kind: 'int',
    unit: 'batches',
    meaning: 'max times reads can starve a write',
    min: 0,
  },
  {
    sysfs: 'fifo_batch',
    kind: 'int',
    unit: 'requests',
    meaning: 'requests per sector-ordered batch',
    min: 1,
  },
  { sysfs: 'front_merges', kind: 'bool', unit: '', meaning: 'front merges on' },
]

/** The kernel's schedulers with their sysfs tunables (names and units as block/*-iosched.c has them). */
export const KERNEL_SCHEDULERS: readonly KernelScheduler[] = [
  { name: 'none', tunables: [] },
  {
    name: 'mq-deadline',
    tunables: [
      ...deadlineFiles,
      ms('prio_aging_expire', 'a lower-priority request waiting this long is served first (5.16+)'),
      {
        sysfs: 'async_depth',
        kind: 'int',
        unit: 'requests',
        meaning: 'request slots async I/O may hold',
        min: 0,
        toSysfs: (v) =>
          Number(v) === 0
            ? { skip: 'async_depth 0 means "the kernel default" in the lab: left as the kernel has it' }
            : { file: 'async_depth', value: String(v) },
      },
    ],
  },
  {
    name: 'kyber',
    tunables: [
      { sysfs: 'read_lat_nsec', kind: 'int', unit: 'ns', meaning: 'read latency target', min: 1 },
      { sysfs: 'write_lat_nsec', kind: 'int', unit: 'ns', meaning: 'write latency target', min: 1 },
    ],
  },
  {
    name: 'bfq',
    tunables: [
      ms('fifo_expire_sync', 'age after which a sync request is served out of order'),
      ms('fifo_expire_async', 'ditto for async requests'),
      {
        sysfs: 'back_seek_max',
        kind: 'int',
        unit: 'KiB',
        meaning: 'longest backward seek considered',
        min: 0,
      },
      {
        sysfs: 'back_seek_penalty',
        kind: 'int',
        unit: '×',
        meaning: 'cost factor of a backward seek',
        min: 1,
      },
      {
        ...ms('slice_idle', 'idle wait for an emptied sync queue'),
        // the lab takes fractions of a ms; the kernel's slice_idle is whole ms, slice_idle_us µs
        toSysfs: (v) =>
          Number.isInteger(Number(v))
            ? { file: 'slice_idle', value: String(v) }
            : { file: 'slice_idle_us', value: String(Math.round(Number(v) * 1000)) },
      },
      ms('timeout_sync', 'budget timeout'),
      {
        sysfs: 'max_budget',
        kind: 'int',
        unit: 'sectors',
        meaning: 'largest budget (0 = automatic)',
        min: 0,
      },
      { sysfs: 'strict_guarantees', kind: 'bool', unit: '', meaning: 'strict service guarantees' },
      { sysfs: 'low_latency', kind: 'bool', unit: '', meaning: 'weight-raising for interactive queues' },
    ],
  },
]

/** Lab name → kernel name, with what the user should know about the mapping. */
const MAPPED: Record<string, { kernel: string; note?: string }> = {
  none: { kernel: 'none' },
  noop: { kernel: 'none', note: 'noop runs as "none" on blk-mq kernels (no reordering, merging only)' },
  fcfs: {
    kernel: 'none',
    note: 'fcfs runs as "none", the kernel’s dispatch in arrival order (after merging)',
  },
  deadline: {
    kernel: 'mq-deadline',
    note: 'deadline runs as mq-deadline on blk-mq kernels (same algorithm and tunables, plus I/O priorities)',
  },
  'mq-deadline': { kernel: 'mq-deadline' },
  kyber: { kernel: 'kyber' },
  bfq: { kernel: 'bfq' },
}

/** Schedulers with no kernel equivalent today, and why. */
const REFUSED: Record<string, string> = {
  cfq: 'CFQ was removed in Linux 5.0 with the legacy block layer; on blk-mq its successor is bfq (add a "bfq" entry to compare)',
  anticipatory:
    'the anticipatory scheduler was removed in Linux 2.6.33; on blk-mq the nearest is bfq, whose slice_idle anticipates the same way',
  as: 'the anticipatory scheduler ("as") was removed in Linux 2.6.33; on blk-mq the nearest is bfq (slice_idle)',
  row: 'ROW was an out-of-tree Android (Qualcomm) scheduler, never in mainline Linux',
  sstf: 'SSTF is a textbook scheduler, not in any Linux kernel',
  scan: 'SCAN is a textbook scheduler, not in any Linux kernel',
  look: 'LOOK is a textbook scheduler, not in any Linux kernel',
  'c-look': 'C-LOOK is a textbook scheduler, not in any Linux kernel',
  'c-scan': 'C-SCAN is a textbook scheduler, not in any Linux kernel',
}

export const kernelScheduler = (name: string): KernelScheduler | undefined =>
  KERNEL_SCHEDULERS.find((k) => k.name === name)

/** Is this a name the kernel knows but the lab may not simulate (yet)? */
export const isKernelSchedulerName = (name: string): boolean => kernelScheduler(name) !== undefined

/** One tunable write the real run will make. */
export interface TunableWrite {
  /** The lab's tunable name and value. */
  tunable: string
  value: number | boolean | string
  file: string
  text: string
  /** The kernel's unit: `ms` values may read back rounded to a jiffy. */
  unit: string
}

export type SchedulerMapping =
  { ok: true; kernel: string; writes: TunableWrite[]; notes: string[] } | { ok: false; reason: string }

/** Map a lab scheduler entry (name + resolved tunables) onto the kernel's. */
export function mapScheduler(labName: string, tunables: ParamValues): SchedulerMapping {
  const n = labName.toLowerCase()
  if (REFUSED[n]) return { ok: false, reason: `"${labName}" cannot run on this kernel: ${REFUSED[n]}` }
  const m = MAPPED[n]
  if (!m)
    return {
      ok: false,
      reason: `"${labName}" has no kernel equivalent the lab knows of (known: ${Object.keys(MAPPED).join(', ')})`,
    }
  const k = kernelScheduler(m.kernel)!
  const notes = m.note ? [m.note] : []
  const writes: TunableWrite[] = []
  for (const [name, value] of Object.entries(tunables)) {
    const t = k.tunables.find((x) => x.sysfs === name)
    if (!t) {
      notes.push(`tunable ${name} of ${labName} has no sysfs file in the kernel's ${k.name}: not applied`)
      continue
    }
    const conv = t.toSysfs
      ? t.toSysfs(value)
      : { file: t.sysfs, value: t.kind === 'bool' ? (value ? '1' : '0') : String(Math.round(Number(value))) }
    if ('skip' in conv) {
      notes.push(conv.skip)
      continue
    }
    if (t.kind === 'int' && !t.toSysfs && Number(value) !== Math.round(Number(value)))
      notes.push(`${name} = ${value} ${t.unit} rounded to ${conv.value}: the kernel takes whole ${t.unit}`)
    writes.push({
      tunable: name,
      value,
      file: conv.file,
      text: conv.value,
      unit: conv.file.endsWith('_us') ? 'µs' : t.unit,
    })
  }
  return { ok: true, kernel: k.name, writes, notes }
}

/**
 * Check tunables given for a kernel scheduler the simulator does not model (yet): names must be the
 * kernel's sysfs names, values whole numbers (or booleans). Returns problems as [name, message].
 */
export function checkKernelTunables(kernel: string, given: Record<string, unknown>): [string, string][] {
  const k = kernelScheduler(kernel)
  if (!k) return [['', `unknown kernel scheduler "${kernel}"`]]
  const out: [string, string][] = []
  for (const [name, v] of Object.entries(given)) {
    const t = k.tunables.find((x) => x.sysfs === name)
    if (!t) {
      out.push([
        name,
        `${kernel} has no tunable "${name}"; known: ${k.tunables.map((x) => x.sysfs).join(', ') || 'none'}`,
      ])
      continue
    }
    if (
      t.kind === 'bool'
        ? typeof v !== 'boolean' && v !== 0 && v !== 1
        : typeof v !== 'number' || !Number.isFinite(v)
    )
      out.push([
        name,
        `expected ${t.kind === 'bool' ? 'true or false' : `a number (${t.unit})`}, got ${JSON.stringify(v)}`,
      ])
    else if (t.min !== undefined && Number(v) < t.min)
      out.push([name, `expected ≥ ${t.min} ${t.unit}, got ${String(v)}`])
  }
  return out
}
