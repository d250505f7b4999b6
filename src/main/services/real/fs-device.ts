import { realpathSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { FileSystemFacts } from '../../../shared/experiment/real-system'
import { listSys, readSys } from './sysfs'
import { fileSystemOf } from './system-info'

/**
 * The block device whose I/O scheduler a file system's I/O meets, found from a directory: its
 * st_dev is the file system's device (/sys/dev/block/MAJ:MIN); a partition's parent is the disk
 * whose queue the scheduler belongs to; a device without a scheduler of its own (device-mapper,
 * md: bio-based) passes its I/O to the devices under it (slaves/), and when that is exactly one,
 * its scheduler is the one; a loop device has a scheduler of its own (the disk under its backing
 * file keeps its own, and is named). Anything else is a refusal saying why.
 */
export interface FsDevice {
  fileSystem: FileSystemFacts | null
  /** The file system's own block device (`sda1`, `dm-0`, `loop5`), or null. */
  blockDevice: string | null
  /** The whole device whose scheduler is switched (`sda`, `loop5`). */
  schedulerDevice: string
  /** How the one was found from the other, in words (empty when they are the same disk). */
  notes: string[]
}

/** File systems where a test file makes no sense, and why. */
const NO_DISK: [RegExp, string][] = [
  [/^(tmpfs|ramfs)$/, 'it keeps its files in memory: no disk and no I/O scheduler is under it'],
  [
    /^(proc|sysfs|devtmpfs|devpts|debugfs|tracefs|securityfs|cgroup2?|configfs|pstore|bpf|hugetlbfs|mqueue|binfmt_misc|autofs|efivarfs|fusectl|nsfs|rpc_pipefs)$/,
    'it is a kernel pseudo file system, not storage',
  ],
  [
    /^(nfs4?|cifs|smb3|9p|virtiofs|ceph|glusterfs|afs|sshfs|fuse(\..*)?|fuseblk)$/,
    'its I/O goes over the network or through a user-space file system, not to a local block device whose scheduler the lab could switch',
  ],
  [
    /^overlay$/,
    'it is an overlay of other file systems (a container’s root): pick a directory on the file system under it',
  ],
  [/^(squashfs|iso9660|udf|erofs|cramfs)$/, 'it is read-only'],
]

export type FsDeviceAnswer = { ok: true; device: FsDevice } | { ok: false; reason: string }

export interface FsDeviceRoots {
  /** /sys/dev/block */
  devBlock?: string
  /** /sys/block */
  sysBlock?: string
  mountinfo?: string
}

/** Major and minor of a dev_t (Linux's new_decode_dev). */
export function majMinOf(dev: number): string {
  return `${(dev >> 8) & 0xfff}:${(dev & 0xff) | ((dev >> 12) & 0xfff00)}`
}

/** The device under the file system that holds `dir`, or why there is none the lab could use. */
export function deviceUnderDir(dir: string, roots: FsDeviceRoots = {}): FsDeviceAnswer {
  const devBlock = roots.devBlock ?? '/sys/dev/block'
  const sysBlock = roots.sysBlock ?? process.env.IOSCHED_LAB_SYSFS_BLOCK ?? '/sys/block'
  const fs = fileSystemOf(dir, roots.mountinfo)
  const where = fs ? `${fs.type} mounted at ${fs.mountPoint} (from ${fs.source})` : 'its file system'
  if (fs)
    for (const [re, why] of NO_DISK)
      if (re.test(fs.type)) return { ok: false, reason: `${dir} is on ${where}: ${why}` }
  let id: string
  try {
    id = majMinOf(statSync(dir).dev)
  } catch (e) {
    return { ok: false, reason: `cannot read ${dir}: ${(e as Error).message}` }
  }
  const notes: string[] = []
  // the file system's own block device; a device number without one (btrfs's anonymous st_dev)
  // falls back to the mount's source when that is a device node
  let node = sysNode(join(devBlock, id))
  if (!node && fs?.source.startsWith('/dev/')) {
    try {
      node = sysNode(join(devBlock, majMinOf(statSync(realpathSync(fs.source)).rdev)))
      if (node) notes.push(`${fs.type} gives its files device number ${id}; its device is ${fs.source}`)
    } catch {
      node = null
    }
  }
  if (!node)
    return {
      ok: false,
      reason: `${dir} is on ${where}, whose device number ${id} is not a block device: there is no I/O scheduler the lab could switch`,
    }
  const blockDevice = node.name
  const seen = new Set<string>()
  let cur = node
  for (;;) {
    if (seen.has(cur.name) || seen.size > 8)
      return {
        ok: false,
        reason: `${dir}: the devices under ${blockDevice} form a loop (${[...seen].join(' → ')})`,
      }
    seen.add(cur.name)
    const disk = cur.partitionOf ?? cur.name
    if (cur.partitionOf) notes.push(`${cur.name} is a partition of ${disk}: the scheduler is ${disk}’s`)
    const choices = schedulerChoices(join(sysBlock, disk))
    if (choices.length > 1) {
      const back = readSys(join(sysBlock, disk, 'loop', 'backing_file'))
      if (back !== null)
        notes.push(
          `${disk} is a loop device on ${back}: ${disk}’s scheduler is switched; the disk under that file keeps its own`,
        )
      return { ok: true, device: { fileSystem: fs, blockDevice, schedulerDevice: disk, notes } }
    }
    const slaves = listSys(join(sysBlock, disk, 'slaves'))
    const kind = /^dm-/.test(disk)
      ? `device-mapper device${nameOf(sysBlock, disk)}`
      : /^md/.test(disk)
        ? 'software RAID (md) device'
        : 'device'
    if (slaves.length === 1) {
      const under = sysNode(join(sysBlock, disk, 'slaves', slaves[0]))
      if (!under) break
      notes.push(`${disk} is a ${kind} with no scheduler of its own on one device, ${slaves[0]}`)
      cur = under
      continue
    }
    if (slaves.length > 1)
      return {
        ok: false,
        reason: `${dir} is on ${where}: ${disk} is a ${kind} over ${slaves.length} devices (${slaves.join(', ')}), each with its own scheduler; the lab switches one. Pick a file system on one device`,
      }
    return {
      ok: false,
      reason: `${dir} is on ${where}: ${disk} has no I/O scheduler to switch (queue/scheduler: ${choices.join(' ') || 'none'}) and no device under it`,
    }
  }
  return { ok: false, reason: `${dir}: cannot find the device under ${blockDevice}` }
}

/** A device's sysfs directory (resolved): its name and, for a partition, its disk. */
function sysNode(link: string): { name: string; partitionOf: string | null } | null {
  let dir: string
  try {
    dir = realpathSync(link)
  } catch {
    return null
  }
  return {
    name: basename(dir),
    partitionOf: readSys(join(dir, 'partition')) !== null ? basename(dirname(dir)) : null,
  }
}

/** The schedulers a device's queue offers (`none`, `mq-deadline` …); [] without a scheduler file. */
function schedulerChoices(dir: string): string[] {
  return (readSys(join(dir, 'queue', 'scheduler')) ?? '').replace(/[[\]]/g, '').split(/\s+/).filter(Boolean)
}

const nameOf = (sysBlock: string, disk: string): string => {
  const n = readSys(join(sysBlock, disk, 'dm', 'name'))
  return n ? ` (${n})` : ''
}
