// Scratch loop devices and directories that no running lab process accounts for — their journal
// gone or never written (a lab killed before it knew of them; labs before the owner file came
// first) — are ours by their directory's name (iosched-lab-scratch-*) and removed by `doctor`
// once their owner is gone: attached devices anywhere, and unattached directories in the scratch
// parent directory (a backing file a killed lab was still filling).
import { readdirSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { readJournals } from './journal'
import { detachLoopsBackedBy, loopsBackedBy, scratchOwnerGone } from './loop-device'
import { SCRATCH_PREFIX, scratchParentDir } from './state-dir'

const isScratchDir = (dir: string): boolean => basename(dir).startsWith(SCRATCH_PREFIX)

/** Megabytes the files directly in `dir` take on disk. */
function sizeOf(dir: string): string {
  let bytes = 0
  for (const f of readdirSync(dir))
    try {
      bytes += statSync(join(dir, f)).blocks * 512
    } catch {
      /* gone meanwhile */
    }
  return `${Math.round(bytes / 2 ** 20)} MiB`
}

/** Detach and delete every stray scratch device and directory; what was done, one line each. */
export async function removeStrayScratch(
  stateDir: string,
  parentDir = scratchParentDir(),
): Promise<string[]> {
  const actions: string[] = []
  // what a running lab process's journal holds is that process's to release
  const live = new Set(
    readJournals(stateDir).flatMap((j) => (j.data && j.ownerAlive ? j.data.loops.map((l) => l.tempDir) : [])),
  )
  const stray = (dir: string): boolean => isScratchDir(dir) && !live.has(dir) && scratchOwnerGone(dir)
  for (const l of await loopsBackedBy('/')) {
    const dir = dirname(l.backingFile)
    if (!stray(dir)) continue
    for (const d of await detachLoopsBackedBy(l.backingFile))
      actions.push(`detached stray scratch device ${d} (${l.backingFile})`)
    rmSync(dir, { recursive: true, force: true })
    actions.push(`deleted ${dir}`)
  }
  let names: string[] = []
  try {
    names = readdirSync(parentDir)
  } catch {
    /* no scratch parent directory: nothing left there */
  }
  for (const name of names) {
    const dir = join(parentDir, name)
    if (!stray(dir)) continue
    try {
      if (!statSync(dir).isDirectory()) continue
      const size = sizeOf(dir)
      for (const d of await detachLoopsBackedBy(dir))
        actions.push(`detached stray scratch device ${d} (${dir})`)
      rmSync(dir, { recursive: true, force: true })
      actions.push(`deleted stray scratch directory ${dir} (${size}; no running lab process owns it)`)
    } catch {
      /* gone meanwhile */
    }
  }
  return actions
}
