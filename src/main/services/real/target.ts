import { statfsSync } from 'node:fs'
import { join } from 'node:path'
import type { BlockDevice } from './block-devices'
import { findBlockDevice } from './block-devices'
import { checkDeviceTarget } from './device-safety'
import type { Journal } from './journal'
import { devicesHeldByOthers } from './journal'
import type { ScratchLoop } from './loop-device'
import { createScratchLoop, releaseScratchLoop } from './loop-device'
import { scratchParentDir } from './state-dir'
import { readSys, sysBlockDir } from './sysfs'

/** Where a real run goes: by default a scratch loop device, or a whole device the user confirmed. */
export type TargetRequest =
  | { kind: 'scratch'; sizeBytes?: number; parentDir?: string; fill?: boolean }
  | { kind: 'device'; name: string; confirm?: string }

/** A device the lab may run on, and how to give it back. */
export interface Target {
  kind: 'scratch-loop' | 'device'
  name: string
  path: string
  sizeBytes: number
  rotational: boolean
  model: string | null
  description: string
  loop: ScratchLoop | null
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

/**
 * Acquire the target of a real run. Scratch: a loop device on a file of the lab's own, attached
 * with direct I/O, detached and deleted by `release`. A whole device: only when the safety rules
 * allow it (device-safety.ts), when no other running lab process holds it, and when it is big
 * enough; `release` leaves it as it is (the scheduler is restored by the run itself).
 */
export async function acquireTarget(
  req: TargetRequest,
  o: { readOnly: boolean; neededBytes: number; journal: Journal },
): Promise<Target> {
  if (req.kind === 'device') {
    const dev = await findBlockDevice(req.name)
    const check = checkDeviceTarget(dev, req.name, { readOnly: o.readOnly, confirm: req.confirm })
    if (!check.ok) throw new TargetRefused(check.reason)
    const d = dev as BlockDevice
    const holder = devicesHeldByOthers(o.journal.stateDir).get(d.name)
    if (holder !== undefined)
      throw new TargetRefused(
        `refusing ${d.path}: another iosched-lab process (pid ${holder}) is running on it`,
      )
    if (d.sizeBytes < o.neededBytes)
      throw new TargetRefused(
        `refusing ${d.path}: it holds ${human(d.sizeBytes)} and the spec's files need ${human(o.neededBytes)}`,
      )
    return {
      kind: 'device',
      name: d.name,
      path: d.path,
      sizeBytes: d.sizeBytes,
      rotational: d.rotational,
      model: d.model,
      description: `${d.path} (${d.model ?? d.type}, ${human(d.sizeBytes)}${d.rotational ? ', rotational' : ''})`,
      loop: null,
      warnings: check.warnings,
      release: async () => [],
    }
  }
  const size = scratchSize(req.sizeBytes, o.neededBytes)
  const parent = req.parentDir ?? scratchParentDir()
  try {
    const fs = statfsSync(parent)
    const free = fs.bavail * fs.bsize
    if (free < size + 64 * MiB)
      throw new TargetRefused(
        `${parent} has ${human(free)} free, too little for a ${human(size)} scratch device: choose another place with --scratch-dir (or IOSCHED_LAB_SCRATCH_DIR)`,
      )
  } catch (e) {
    if (e instanceof TargetRefused) throw e
    throw new TargetRefused(`cannot use ${parent} for the scratch device: ${(e as Error).message}`)
  }
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
    description: `scratch loop device ${loop.device} (${human(loop.sizeBytes)} on ${loop.backingFile}${loop.directIo ? ', direct I/O' : ''})`,
    loop,
    warnings,
    release: () => releaseScratchLoop(loop, o.journal),
  }
}
