import {
  closeSync,
  ftruncateSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { runCommand } from './exec'
import type { Journal } from './journal'
import type { ProcessIdentity } from './proc-identity'
import { isAlive, selfIdentity } from './proc-identity'
import { SCRATCH_PREFIX, scratchParentDir } from './state-dir'
import { readSys, sysBlockDir } from './sysfs'

/** A loop device the lab created on a file it owns, in a directory it deletes afterwards. */
export interface ScratchLoop {
  /** `/dev/loopN` */
  device: string
  name: string
  backingFile: string
  tempDir: string
  sizeBytes: number
  /** Whether the loop driver really does direct I/O to the file (needs O_DIRECT in its filesystem). */
  directIo: boolean
}

export interface ScratchOptions {
  sizeBytes: number
  /** Parent of the scratch directory (default IOSCHED_LAB_SCRATCH_DIR or the temp directory). */
  parentDir?: string
  /** Write the whole file first, so reads reach the disk instead of returning a hole's zeros (default true). */
  fill?: boolean
  journal?: Journal
}

const MiB = 1 << 20

/**
 * Create the backing file, attach it with `losetup --find --show --direct-io=on`, note it in the
 * journal. Who owns the directory (its owner file) and the journal's entry are written before the
 * file's first byte: a lab killed while filling it — seconds for a large device — leaves a file
 * that the journal's replay (the next start, `doctor`) or doctor's sweep of ownerless scratch
 * directories deletes.
 */
export async function createScratchLoop(o: ScratchOptions): Promise<ScratchLoop> {
  const sizeBytes = Math.ceil(o.sizeBytes / MiB) * MiB
  const tempDir = mkdtempSync(join(o.parentDir ?? scratchParentDir(), SCRATCH_PREFIX))
  const backingFile = join(tempDir, 'scratch.img')
  try {
    // who owns it: `doctor` removes a scratch device only when this process is gone
    writeFileSync(join(tempDir, OWNER_FILE), JSON.stringify(selfIdentity()))
    o.journal?.addLoop({ device: null, backingFile, tempDir })
    const fd = openSync(backingFile, 'w', 0o600)
    try {
      if (o.fill !== false) {
        const chunk = Buffer.alloc(4 * MiB, 0x5a)
        for (let off = 0; off < sizeBytes; off += chunk.length)
          writeSync(fd, chunk, 0, Math.min(chunk.length, sizeBytes - off), off)
      } else ftruncateSync(fd, sizeBytes)
    } finally {
      closeSync(fd)
    }
    const out = await runCommand('losetup', ['--find', '--show', '--direct-io=on', backingFile])
    const device = out.stdout.trim()
    if (!/^\/dev\/loop\d+$/.test(device)) throw new Error(`losetup answered "${device}", not a loop device`)
    o.journal?.setLoopDevice(backingFile, device)
    const name = basename(device)
    return {
      device,
      name,
      backingFile,
      tempDir,
      sizeBytes,
      directIo: readSys(join(sysBlockDir(name), 'loop/dio')) === '1',
    }
  } catch (e) {
    // nothing attached (or attach failed): remove the file; a half-attached device is found by its file
    await detachLoopsBackedBy(backingFile).catch(() => undefined)
    rmSync(tempDir, { recursive: true, force: true })
    o.journal?.removeLoop(backingFile)
    throw new Error(`cannot create a scratch loop device on ${backingFile}: ${(e as Error).message}`)
  }
}

/** Loop devices whose backing file is `file` (or lies under `file` when it is a directory). */
export async function loopsBackedBy(file: string): Promise<{ device: string; backingFile: string }[]> {
  const out = await runCommand('losetup', ['--list', '--json', '--output', 'NAME,BACK-FILE'])
  if (!out.stdout.trim()) return []
  const doc = JSON.parse(out.stdout) as { loopdevices?: { name: string; 'back-file': string | null }[] }
  return (doc.loopdevices ?? [])
    .map((l) => ({ device: l.name, backingFile: (l['back-file'] ?? '').replace(/ \(deleted\)$/, '') }))
    .filter((l) => l.backingFile === file || l.backingFile.startsWith(file.replace(/\/?$/, '/')))
}

/** Detach every loop device backed by `file` (or by files under it). Returns the devices detached. */
export async function detachLoopsBackedBy(file: string): Promise<string[]> {
  const done: string[] = []
  for (const l of await loopsBackedBy(file)) {
    await detachWithRetry(l.device)
    done.push(l.device)
  }
  return done
}

/**
 * `losetup --detach`, tried again for a second while the device is still busy: after a crash,
 * the killed fio may take a moment to let go of it.
 */
async function detachWithRetry(device: string, tries = 10): Promise<void> {
  for (let i = 1; ; i++) {
    try {
      await runCommand('losetup', ['--detach', device])
      return
    } catch (e) {
      if (i >= tries) throw e
      await new Promise((r) => setTimeout(r, 100))
    }
  }
}

/**
 * Detach a scratch loop device — only after checking it is still backed by our file — and delete
 * its directory. Safe to call twice.
 */
export async function releaseScratchLoop(l: ScratchLoop, journal?: Journal): Promise<string[]> {
  const actions: string[] = []
  const back = readSys(join(sysBlockDir(l.name), 'loop/backing_file'))
  if (back !== null && back.replace(/ \(deleted\)$/, '') === l.backingFile) {
    await runCommand('losetup', ['--detach', l.device])
    actions.push(`detached ${l.device}`)
  }
  for (const d of await detachLoopsBackedBy(l.backingFile)) actions.push(`detached ${d}`)
  if (basename(l.tempDir).startsWith(SCRATCH_PREFIX) && dirname(l.backingFile) === l.tempDir) {
    rmSync(l.tempDir, { recursive: true, force: true })
    actions.push(`deleted ${l.tempDir}`)
  }
  journal?.removeLoop(l.backingFile)
  return actions
}

const OWNER_FILE = 'owner.json'

/**
 * How old a scratch directory without an owner file must be to count as abandoned: its creator
 * writes the file right after creating the directory (labs before that wrote it after the fill).
 */
export const OWNERLESS_GRACE_MS = 60_000

/** Is the lab process that created this scratch directory gone (or unknown, and not just now)? */
export function scratchOwnerGone(tempDir: string, now = Date.now()): boolean {
  let owner: string
  try {
    owner = readFileSync(join(tempDir, OWNER_FILE), 'utf8')
  } catch {
    try {
      return now - statSync(tempDir).mtimeMs > OWNERLESS_GRACE_MS
    } catch {
      return true
    }
  }
  try {
    return !isAlive(JSON.parse(owner) as ProcessIdentity)
  } catch {
    return true
  }
}
