import { realpathSync, statSync } from 'node:fs'
import { arch, cpus, release, totalmem, version } from 'node:os'
import { join } from 'node:path'
import type { FileSystemFacts, RealDeviceFacts, RealSystemInfo } from '../../../shared/experiment/real-system'
import { memAvailableBytes } from './host-capture'
import { readQueueFacts } from './queue-facts'
import type { QueueFacts } from './queue-facts'
import { readSys, sysBlockDir } from './sysfs'

/**
 * The machine and device of a real run, read once per run (a few files of /proc and /sys, no
 * program started): kernel, CPU, memory, the device's model, firmware, size, rotational flag and
 * queue attributes (those queue-facts.ts reads), and for a loop device its backing file's file
 * system and mount options and the disk under it. What cannot be read is null, never guessed.
 */
export function captureSystemInfo(
  device: string,
  mountinfo = '/proc/self/mountinfo',
  /** A file target's test file, and its file system's block device. */
  file?: { path: string; blockDevice: string | null },
): RealSystemInfo {
  const list = cpus()
  // one read of the queue: its loop part names the backing file and the disk under it
  const q = readQueueFacts(device)
  const loop = q.loop
  const dio = loop ? readSys(join(sysBlockDir(device), 'loop', 'dio')) : null
  return {
    kernel: { release: release(), version: safe(version), arch: arch() },
    cpu: { model: list[0]?.model?.trim() || null, count: list.length },
    memory: { totalBytes: totalmem() || null, availableBytes: memAvailableBytes() },
    device: deviceFacts(device, q),
    backing: loop
      ? {
          file: loop.backingFile,
          directIo: dio === null ? null : dio === '1',
          fileSystem: loop.backingFile === null ? null : fileSystemOf(loop.backingFile, mountinfo),
          disk: loop.disk ? deviceFacts(loop.disk.device) : null,
        }
      : null,
    ...(file
      ? {
          file: {
            path: file.path,
            fileSystem: fileSystemOf(file.path, mountinfo),
            blockDevice: file.blockDevice,
          },
        }
      : {}),
  }
}

function safe(f: () => string): string | null {
  try {
    return f() || null
  } catch {
    return null
  }
}

const num = (s: string | null): number | null => {
  if (s === null || s.trim() === '') return null
  const n = Number(s.trim())
  return Number.isFinite(n) ? n : null
}

/** A device's model, firmware, size and queue, as sysfs says them. */
export function deviceFacts(name: string, q: QueueFacts = readQueueFacts(name)): RealDeviceFacts {
  const dir = sysBlockDir(name)
  const dev = (f: string): string | null => readSys(join(dir, 'device', f))?.trim() || null
  const queue: Record<string, string> = {}
  const put = (k: string, v: string | number | boolean | null): void => {
    if (v !== null) queue[k] = String(v)
  }
  const file = (f: string): string | null => readSys(join(dir, 'queue', f))?.trim() ?? null
  put('nr_requests', file('nr_requests'))
  put('nr_tags', q.queueDepth)
  if (q.hwQueues > 0) put('hw_queues', q.hwQueues)
  put('max_sectors_kb', q.maxSectorsKiB)
  put('max_segments', q.maxSegments)
  put('read_ahead_kb', q.readAheadKiB)
  put('logical_block_size', q.logicalBlockSize)
  put('physical_block_size', file('physical_block_size'))
  put('write_cache', file('write_cache'))
  put('wbt_lat_usec', q.wbtLatUs)
  const sectors = num(readSys(join(dir, 'size')))
  const rotational = file('rotational')
  return {
    name,
    model: dev('model'),
    vendor: dev('vendor'),
    firmware: dev('firmware_rev') ?? dev('rev'),
    sizeBytes: sectors === null ? null : sectors * 512,
    rotational: rotational === null ? null : rotational === '1',
    scheduler: /\[(.+?)\]/.exec(file('scheduler') ?? '')?.[1] ?? null,
    queue,
  }
}

/** mountinfo escapes space, tab, newline and backslash as octal (\040 …). */
const unescape = (s: string): string =>
  s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)))

/**
 * The file system a file lives on: the mount of its st_dev (major:minor, field 3 of
 * /proc/self/mountinfo) whose mount point is the longest prefix of the file's real path.
 */
export function fileSystemOf(file: string, mountinfo = '/proc/self/mountinfo'): FileSystemFacts | null {
  let path: string
  let id: string
  try {
    path = realpathSync(file)
    const dev = statSync(path).dev
    // Linux's dev_t encoding (new_decode_dev): major in bits 8–19, minor in bits 0–7 and 20–31
    id = `${(dev >> 8) & 0xfff}:${(dev & 0xff) | ((dev >> 12) & 0xfff00)}`
  } catch {
    return null
  }
  let best: FileSystemFacts | null = null
  for (const line of (readSys(mountinfo) ?? '').split('\n')) {
    const [left, right] = line.split(' - ')
    if (!right) continue
    const f = left.split(' ')
    const [type, source, superOptions] = right.split(' ')
    const mountPoint = unescape(f[4] ?? '')
    if (f[2] !== id) continue
    const inside = mountPoint === '/' || path === mountPoint || path.startsWith(`${mountPoint}/`)
    if (!inside || (best && best.mountPoint.length >= mountPoint.length)) continue
    best = {
      type: type ?? '',
      source: unescape(source ?? ''),
      mountPoint,
      options: f[5] ?? '',
      superOptions: superOptions ?? '',
    }
  }
  return best
}
