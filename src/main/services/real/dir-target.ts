import { accessSync, constants, statSync } from 'node:fs'
import { mkdtemp, open, rm } from 'node:fs/promises'
import { isAbsolute, join, resolve } from 'node:path'
import type { FsDevice, FsDeviceRoots } from './fs-device'
import { deviceUnderDir } from './fs-device'
import type { Journal } from './journal'
import { devicesHeldByOthers } from './journal'
import { RUN_PREFIX } from './state-dir'
import { readSys, sysBlockRoot } from './sysfs'

const MiB = 1 << 20

/** The test file's name inside the lab's own directory (`DIR/iosched-lab-run-XXXXXX/`). */
export const TEST_FILE = 'iosched-lab.test'

/** Room left free on the file system beside the test file. */
export const DIR_HEADROOM_BYTES = 64 * MiB

const human = (b: number): string =>
  b >= 2 ** 30 ? `${(b / 2 ** 30).toFixed(1)} GiB` : `${Math.round(b / MiB)} MiB`

/** The test file's size: what the spec's files need, whole MiB, at least 16 MiB. */
export const testFileSize = (needed: number): number => Math.max(16 * MiB, Math.ceil(needed / MiB) * MiB)

/** What a directory target is before its file exists. */
export interface DirFacts {
  dir: string
  /** `DIR/iosched-lab-run-XXXXXX/iosched-lab.test` (the Xs are chosen when it is made). */
  path: string
  sizeBytes: number
  fs: FsDevice
  rotational: boolean
  model: string | null
  description: string
  warnings: string[]
}

export interface DirLookup extends FsDeviceRoots {
  freeBytes?(dir: string): number
}

/**
 * May the lab put its test file in `dir`? It must be an absolute path to an existing directory
 * this process may write, on a file system with a block device whose scheduler can be switched
 * (fs-device.ts: not tmpfs, proc, a network file system, a stack over several devices), with
 * room for the file, and that device not in another lab process's run.
 */
export function judgeDir(
  dir: string,
  o: { neededBytes: number; stateDir: string; freeBytes: (dir: string) => number },
  lookup: DirLookup = {},
): { facts: DirFacts | null; refusal: string | null } {
  const no = (refusal: string) => ({ facts: null, refusal })
  if (dir.trim() === '') return no('give the directory for the test file')
  if (!isAbsolute(dir)) return no(`the directory must be an absolute path (starting with /), got "${dir}"`)
  if (/[\n\0]/.test(dir)) return no('the directory’s name has a line break or NUL in it')
  const d = resolve(dir)
  let st
  try {
    st = statSync(d)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    return no(
      code === 'ENOENT'
        ? `${d} does not exist: create it first, or pick another directory`
        : `cannot read ${d}: ${code ?? (e as Error).message}`,
    )
  }
  if (!st.isDirectory()) return no(`${d} is not a directory`)
  try {
    accessSync(d, constants.W_OK | constants.X_OK)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    return no(
      code === 'EROFS'
        ? `${d} is on a file system mounted read-only`
        : `${d} is not writable for this lab process (${code ?? 'access denied'})`,
    )
  }
  const found = deviceUnderDir(d, lookup)
  if (!found.ok) return no(found.reason)
  const fs = found.device
  const size = testFileSize(o.neededBytes)
  const dev = fs.schedulerDevice
  const sys = join(lookup.sysBlock ?? sysBlockRoot(), dev)
  const rotational = readSys(join(sys, 'queue/rotational')) === '1'
  const model = readSys(join(sys, 'device/model'))?.trim() || null
  const on = fs.fileSystem ? `${fs.fileSystem.type} on ${fs.fileSystem.source}` : (fs.blockDevice ?? dev)
  const facts: DirFacts = {
    dir: d,
    path: join(d, `${RUN_PREFIX}XXXXXX`, TEST_FILE),
    sizeBytes: size,
    fs,
    rotational,
    model,
    description: `a test file of ${human(size)} in ${d} (${on}; the scheduler of /dev/${dev} is switched), removed afterwards`,
    warnings: [...fs.notes],
  }
  const holder = devicesHeldByOthers(o.stateDir).get(dev)
  if (holder !== undefined)
    return {
      facts,
      refusal: `refusing ${d}: another iosched-lab process (pid ${holder}) is running on /dev/${dev}`,
    }
  let free: number
  try {
    free = (lookup.freeBytes ?? o.freeBytes)(d)
  } catch (e) {
    return { facts, refusal: `cannot read the free space of ${d}: ${(e as Error).message}` }
  }
  if (free < size + DIR_HEADROOM_BYTES)
    return {
      facts,
      refusal: `${d} has ${human(free)} free, too little for the ${human(size)} test file (and ${human(DIR_HEADROOM_BYTES)} to spare): free some space, pick another directory, or make the tests’ file smaller`,
    }
  return { facts, refusal: null }
}

/** A test file the lab made, and how to remove it. */
export interface DirTestFile {
  path: string
  /** The lab's own directory around it (RUN_PREFIX…), removed with it. */
  ownDir: string
  sizeBytes: number
}

/**
 * Make the test file: a directory of the lab's own in `dir` (named RUN_PREFIX…, so the journal's
 * replay and `doctor` remove it after a crash), noted in the journal before the first byte, and the
 * file written in full (reads must reach the disk, not a hole's zeros), then synced. Between
 * chunks, `cancelled` is asked; a cancel or an error removes what was made.
 */
export async function makeTestFile(
  facts: Pick<DirFacts, 'dir' | 'sizeBytes'>,
  o: { journal: Journal; cancelled?: () => boolean },
): Promise<DirTestFile> {
  const ownDir = await mkdtemp(join(facts.dir, RUN_PREFIX))
  o.journal.addTempDir(ownDir)
  const path = join(ownDir, TEST_FILE)
  try {
    const fh = await open(path, 'wx', 0o600)
    try {
      const chunk = Buffer.alloc(4 * MiB, 0x5a)
      for (let off = 0; off < facts.sizeBytes; off += chunk.length) {
        if (o.cancelled?.()) throw new Error('cancelled')
        await fh.write(chunk, 0, Math.min(chunk.length, facts.sizeBytes - off), off)
      }
      await fh.sync()
    } finally {
      await fh.close()
    }
  } catch (e) {
    await removeTestFile({ path, ownDir, sizeBytes: facts.sizeBytes }, o.journal)
    throw e
  }
  return { path, ownDir, sizeBytes: facts.sizeBytes }
}

/** Remove the test file and the lab's directory around it. Safe to call twice. */
export async function removeTestFile(f: DirTestFile, journal?: Journal): Promise<string[]> {
  await rm(f.ownDir, { recursive: true, force: true })
  journal?.removeTempDir(f.ownDir)
  return [`removed the test file ${f.path}`]
}
