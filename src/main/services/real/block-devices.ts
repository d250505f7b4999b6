import { openSync, closeSync, constants } from 'node:fs'
import { join } from 'node:path'
import { runCommand } from './exec'
import { listSys, readSys, sysBlockDir } from './sysfs'
import { parseSchedulerLine } from './scheduler-line'
import type { RealDevice } from '../../../shared/api/real-contract'

/** A whole block device as the lab sees it: the same shape the LabApi answers with. */
export type BlockDevice = RealDevice

/** lsblk's JSON node (the columns we ask for). */
export interface LsblkNode {
  name: string
  path?: string
  type?: string
  'maj:min'?: string
  size?: number | string | null
  model?: string | null
  serial?: string | null
  tran?: string | null
  rota?: boolean | string | null
  ro?: boolean | string | null
  fstype?: string | null
  mountpoints?: (string | null)[] | null
  mountpoint?: string | null
  children?: LsblkNode[]
}

const COLUMNS = 'NAME,PATH,TYPE,MAJ:MIN,SIZE,MODEL,SERIAL,TRAN,ROTA,RO,FSTYPE'
const SYSTEM_MOUNTS = ['/', '/boot', '/boot/efi', '/usr', '/var', '[SWAP]']

const FS_MEANING: Record<string, string> = {
  LVM2_member: 'an LVM physical volume',
  linux_raid_member: 'a RAID (md) member',
  crypto_LUKS: 'a LUKS encrypted volume',
  swap: 'a swap area',
  zfs_member: 'a ZFS pool member',
  bcache: 'a bcache device',
}

/** Every whole block device: lsblk for the tree, sysfs for schedulers, holders and loop backing files. */
export async function listBlockDevices(): Promise<BlockDevice[]> {
  let out
  try {
    out = await runCommand('lsblk', ['--json', '--bytes', '-o', `${COLUMNS},MOUNTPOINTS`])
  } catch {
    // util-linux before 2.37 has MOUNTPOINT (one per device) only
    out = await runCommand('lsblk', ['--json', '--bytes', '-o', `${COLUMNS},MOUNTPOINT`])
  }
  const doc = JSON.parse(out.stdout) as { blockdevices?: LsblkNode[] }
  const swaps = swapDevices()
  return (doc.blockdevices ?? []).map((n) => describeDevice(n, swaps))
}

/** Look a device up by name (`sdb`) or path (`/dev/sdb`). */
export async function findBlockDevice(nameOrPath: string): Promise<BlockDevice | undefined> {
  const name = nameOrPath.replace(/^\/dev\//, '')
  return (await listBlockDevices()).find((d) => d.name === name)
}

/** Devices named in /proc/swaps (as kernel names). */
function swapDevices(): Set<string> {
  const text = readSys('/proc/swaps') ?? ''
  const out = new Set<string>()
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/)[0]
    if (f?.startsWith('/dev/')) out.add(f.slice(5))
  }
  return out
}

const bool = (v: unknown): boolean => v === true || v === '1' || v === 1

/** One top-level lsblk node plus sysfs facts → a BlockDevice (exported for tests with fixtures). */
export function describeDevice(n: LsblkNode, swaps: ReadonlySet<string> = new Set()): BlockDevice {
  const dir = sysBlockDir(n.name)
  const sched = parseSchedulerLine(readSys(join(dir, 'queue/scheduler')) ?? '')
  const inUse: string[] = []
  const mounts: string[] = []
  const partitions: string[] = []
  let systemDisk = false
  const visit = (node: LsblkNode, depth: number): void => {
    const path = node.path ?? `/dev/${node.name}`
    const mps = (node.mountpoints ?? [node.mountpoint ?? null]).filter((m): m is string => !!m)
    for (const m of mps) {
      mounts.push(m === '[SWAP]' ? `${path} is active swap` : `${path} on ${m}`)
      if (SYSTEM_MOUNTS.includes(m)) systemDisk = true
    }
    if (node.fstype) inUse.push(`${path} holds ${FS_MEANING[node.fstype] ?? `a ${node.fstype} filesystem`}`)
    if (swaps.has(node.name) && !mps.includes('[SWAP]')) {
      mounts.push(`${path} is active swap`)
      systemDisk = true
    }
    if (depth === 1 && node.type === 'part') partitions.push(node.name)
    if (depth >= 1 && node.type !== 'part') inUse.push(`${path} (${node.type}) is built on it`)
    for (const c of node.children ?? []) visit(c, depth + 1)
  }
  visit(n, 0)
  if (partitions.length > 0) inUse.unshift(`it has partitions: ${partitions.join(', ')}`)
  inUse.unshift(...mounts.map((m) => `mounted: ${m}`))
  const holders = listSys(join(dir, 'holders'))
  for (const p of partitions) holders.push(...listSys(join(dir, p, 'holders')))
  if (holders.length > 0 && !inUse.some((u) => u.endsWith('is built on it')))
    inUse.push(`held by ${holders.join(', ')} (device-mapper, LVM, RAID or bcache)`)
  const sectors = Number(readSys(join(dir, 'size')))
  const size = typeof n.size === 'number' ? n.size : Number(n.size ?? (sectors || 0) * 512)
  return {
    name: n.name,
    path: n.path ?? `/dev/${n.name}`,
    type: n.type ?? 'disk',
    majMin: n['maj:min'] ?? readSys(join(dir, 'dev')) ?? '',
    sizeBytes: Number.isFinite(size) ? size : 0,
    model: n.model?.trim() || readSys(join(dir, 'device/model'))?.trim() || null,
    serial: n.serial?.trim() || null,
    transport: n.tran ?? null,
    rotational:
      n.rota !== undefined && n.rota !== null ? bool(n.rota) : readSys(join(dir, 'queue/rotational')) === '1',
    readOnly: n.ro !== undefined && n.ro !== null ? bool(n.ro) : readSys(join(dir, 'ro')) === '1',
    schedulers: sched.available,
    activeScheduler: sched.active,
    loopBackingFile: readSys(join(dir, 'loop/backing_file')),
    partitions,
    mounts,
    inUse,
    systemDisk,
  }
}

/**
 * Whether the kernel lets us open the device exclusively (O_EXCL on a block device fails with EBUSY
 * while it is mounted, swapped on, or claimed by md/dm/bcache …). Null when we may not open it at all.
 */
export function exclusiveOpenWorks(path: string): boolean | null {
  try {
    const fd = openSync(path, constants.O_RDONLY | constants.O_EXCL)
    closeSync(fd)
    return true
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    return code === 'EBUSY' ? false : null
  }
}
