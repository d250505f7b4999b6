import { statfsSync } from 'node:fs'
import { join } from 'node:path'
import type { BlockDevice } from './block-devices'
import { findBlockDevice } from './block-devices'
import { checkDeviceTarget } from './device-safety'
import type { DirLookup, DirTestFile } from './dir-target'
import { judgeDir, makeTestFile, removeTestFile } from './dir-target'
import type { Journal } from './journal'
import { devicesHeldByOthers } from './journal'
import type { ScratchLoop } from './loop-device'
import { createScratchLoop, releaseScratchLoop } from './loop-device'
import { scratchParentDir } from './state-dir'
import { readSys, sysBlockDir } from './sysfs'
import type { FileSystemFacts } from '../../../shared/experiment/real-system'

/**
 * Where a real run goes: by default a scratch loop device, a whole device the user confirmed, or a
 * test file of the lab's own in a directory the user picked (the scheduler of the device under
 * that file system is the one switched).
 */
export type TargetRequest =
  | { kind: 'scratch'; sizeBytes?: number; parentDir?: string; fill?: boolean }
  | { kind: 'device'; name: string; confirm?: string }
  | { kind: 'dir'; dir: string }

/** A device the lab may run on, and how to give it back. */
export interface Target {
  /** `file`: `path` is the test file, `name` the device whose scheduler is switched. */
  kind: 'scratch-loop' | 'device' | 'file'
  /** The whole device whose scheduler is switched, sampled and traced. */
  name: string
  /** What the engine does its I/O on: the device node, or the test file. */
  path: string
  sizeBytes: number
  rotational: boolean
  model: string | null
  description: string
  loop: ScratchLoop | null
  /** A file target's directory and file system (null otherwise). */
  file: FileTargetFacts | null
  warnings: string[]
  release(): Promise<string[]>
}

/** The target was refused; the message says why and what to do instead. */
export class TargetRefused extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'TargetRefused'
  }
}

const MiB = 1 << 20
export const DEFAULT_SCRATCH_BYTES = 256 * MiB

const human = (b: number): string =>
  b >= 2 ** 30 ? `${(b / 2 ** 30).toFixed(b % 2 ** 30 ? 1 : 0)} GiB` : `${Math.round(b / MiB)} MiB`

/** Scratch size: what the user asked for, else enough for the spec's files (at least 256 MiB). */
export function scratchSize(requested: number | undefined, needed: number): number {
  if (requested !== undefined) {
    if (requested < needed)
      throw new TargetRefused(
        `the scratch device of ${human(requested)} is smaller than the spec's files need (${human(needed)}): give --scratch-size ${Math.ceil(needed / MiB)}M or more`,
      )
    return requested
  }
  return Math.max(DEFAULT_SCRATCH_BYTES, Math.ceil(needed / (64 * MiB)) * 64 * MiB)
}

/** A file target: the directory picked, the file system there and its own block device. */
export interface FileTargetFacts {
  dir: string
  fileSystem: FileSystemFacts | null
  /** The file system's block device (`sda1`, `dm-0`), which may differ from the switched disk. */
  blockDevice: string | null
}

/** What is known of a target before it is acquired (a scratch device is `/dev/loopN` until made). */
export type TargetFacts = Omit<Target, 'loop' | 'release'>

/** How targets are looked up: the machine's own by default; tests give device descriptions. */
export interface TargetLookup extends DirLookup {
  /** A whole device by name (default: lsblk and sysfs). */
  findDevice?(name: string): Promise<BlockDevice | undefined>
  /** Whether an O_EXCL open succeeds (default: try it; null when it may not be opened). */
  exclusiveOpen?(path: string): boolean | null
  /** Free bytes under a directory (default: statfs). */
  freeBytes?(dir: string): number
}

/**
 * Would the run be allowed on this target, and what is it? The one judgement both the run
 * (`acquireTarget`) and its preview (`--dry-run`, the app's preview) make: the safety rules of
 * device-safety.ts, a device another running lab process holds, a device too small for the
 * spec's files, a scratch device too small or without room for its file. `facts` is null only
 * when the device does not exist; a refused device keeps its facts (the preview shows its job).
 */
export async function judgeTarget(
  req: TargetRequest,
  o: { readOnly: boolean; neededBytes: number; stateDir: string },
  lookup: TargetLookup = {},
): Promise<{ facts: TargetFacts | null; refusal: string | null }> {
  if (req.kind === 'dir') return judgeDirTarget(req.dir, o, lookup)
  if (req.kind === 'device') {
    const dev = await (lookup.findDevice ?? findBlockDevice)(req.name.replace(/^\/dev\//, ''))
    const check = checkDeviceTarget(dev, req.name, {
      readOnly: o.readOnly,
      confirm: req.confirm,
      exclusiveOpen: lookup.exclusiveOpen,
    })
    if (!dev) return { facts: null, refusal: check.ok ? 'no such device' : check.reason }
    const facts: TargetFacts = {
      kind: 'device',
      name: dev.name,
      path: dev.path,
      sizeBytes: dev.sizeBytes,
      rotational: dev.rotational,
      model: dev.model,
      description: `${dev.path} (${dev.model ?? dev.type}, ${human(dev.sizeBytes)}${dev.rotational ? ', rotational' : ''})`,
      file: null,
      warnings: check.ok ? check.warnings : [],
    }
    if (!check.ok) return { facts, refusal: check.reason }
    const holder = devicesHeldByOthers(o.stateDir).get(dev.name)
    if (holder !== undefined)
      return {
        facts,
        refusal: `refusing ${dev.path}: another iosched-lab process (pid ${holder}) is running on it`,
      }
    if (dev.sizeBytes < o.neededBytes)
      return {
        facts,
        refusal: `refusing ${dev.path}: it holds ${human(dev.sizeBytes)} and the spec's files need ${human(o.neededBytes)}`,
      }
    return { facts, refusal: null }
  }
  let size: number
  try {
    size = scratchSize(req.sizeBytes, o.neededBytes)
  } catch (e) {
    if (e instanceof TargetRefused) return { facts: null, refusal: e.message }
    throw e
  }
  const parent = req.parentDir ?? scratchParentDir()
  const facts: TargetFacts = {
    kind: 'scratch-loop',
    name: 'loopN',
    path: '/dev/loopN',
    sizeBytes: size,
    rotational: false,
    model: 'loop',
    description: `a scratch loop device of ${human(size)} (/dev/loopN, on a file of the lab's own in ${parent}, direct I/O), detached afterwards`,
    file: null,
    warnings: [],
  }
  let free: number
  try {
    free = (lookup.freeBytes ?? freeBytesUnder)(parent)
  } catch (e) {
    return { facts, refusal: `cannot use ${parent} for the scratch device: ${(e as Error).message}` }
  }
  if (free < size + 64 * MiB)
    return {
      facts,
      refusal: `${parent} has ${human(free)} free, too little for a ${human(size)} scratch device: choose another place with --scratch-dir (or IOSCHED_LAB_SCRATCH_DIR)`,
    }
  return { facts, refusal: null }
}

/** A directory target: dir-target.ts's judgement, and a warning when its disk holds the system. */
async function judgeDirTarget(
  dir: string,
  o: { neededBytes: number; stateDir: string },
  lookup: TargetLookup,
): Promise<{ facts: TargetFacts | null; refusal: string | null }> {
  const j = judgeDir(dir, { ...o, freeBytes: freeBytesUnder }, lookup)
  if (!j.facts) return { facts: null, refusal: j.refusal }
  const f = j.facts
  const name = f.fs.schedulerDevice
  const warnings = [...f.warnings]
  const dev = await (lookup.findDevice ?? findBlockDevice)(name).catch(() => undefined)
  if (dev?.systemDisk)
    warnings.push(
      `/dev/${name} holds the running system: its scheduler is switched under it for each run (and restored afterwards), and the system’s own I/O disturbs the measurement`,
    )
  return {
    facts: {
      kind: 'file',
      name,
      path: f.path,
      sizeBytes: f.sizeBytes,
      rotational: f.rotational,
      model: f.model,
      description: f.description,
      file: { dir: f.dir, fileSystem: f.fs.fileSystem, blockDevice: f.fs.blockDevice },
      warnings,
    },
    refusal: j.refusal,
  }
}

function freeBytesUnder(dir: string): number {
  const fs = statfsSync(dir)
  return fs.bavail * fs.bsize
}

/**
 * Acquire the target of a real run, as `judgeTarget` allows it. Scratch: a loop device on a file
 * of the lab's own, attached with direct I/O, detached and deleted by `release`. A whole device:
 * `release` leaves it as it is (the scheduler is restored by the run itself).
 */
export async function acquireTarget(
  req: TargetRequest,
  o: { readOnly: boolean; neededBytes: number; journal: Journal; cancelled?: () => boolean },
  lookup: TargetLookup = {},
): Promise<Target> {
  const judged = await judgeTarget(req, { ...o, stateDir: o.journal.stateDir }, lookup)
  if (judged.refusal !== null || judged.facts === null)
    throw new TargetRefused(judged.refusal ?? `no target for ${JSON.stringify(req)}`)
  if (req.kind === 'device') return { ...judged.facts, loop: null, release: async () => [] }
  if (req.kind === 'dir') {
    const facts = judged.facts
    const made: DirTestFile = await makeTestFile(
      { dir: facts.file!.dir, sizeBytes: facts.sizeBytes },
      { journal: o.journal, cancelled: o.cancelled },
    )
    return {
      ...facts,
      path: made.path,
      loop: null,
      release: () => removeTestFile(made, o.journal),
    }
  }
  const size = judged.facts.sizeBytes
  const parent = req.parentDir ?? scratchParentDir()
  const loop = await createScratchLoop({
    sizeBytes: size,
    parentDir: parent,
    fill: req.fill,
    journal: o.journal,
  })
  const warnings = loop.directIo
    ? []
    : [
        `${loop.device}: direct I/O to ${loop.backingFile} could not be enabled (its filesystem lacks O_DIRECT, e.g. tmpfs): ` +
          'the backing file’s page cache sits under the device and flatters it; use --scratch-dir on a disk filesystem',
      ]
  return {
    kind: 'scratch-loop',
    name: loop.name,
    path: loop.device,
    sizeBytes: loop.sizeBytes,
    rotational: readSys(join(sysBlockDir(loop.name), 'queue/rotational')) === '1',
    model: 'loop',
    file: null,
    description: `scratch loop device ${loop.device} (${human(loop.sizeBytes)} on ${loop.backingFile}${loop.directIo ? ', direct I/O' : ''})`,
    loop,
    warnings,
    release: () => releaseScratchLoop(loop, o.journal),
  }
}
