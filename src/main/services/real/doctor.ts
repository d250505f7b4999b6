import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { findExecutable, runCommand } from './exec'
import { readJournals } from './journal'
import { detachLoopsBackedBy, loopsBackedBy, scratchOwnerGone } from './loop-device'
import { isRoot, ROOT_MESSAGE } from './prerequisites'
import { repairJournals } from './repair'
import { SCRATCH_PREFIX } from './state-dir'

/** One thing real runs need, and whether this machine has it. */
export interface DoctorCheck {
  what: string
  ok: boolean
  detail: string
}

export interface Diagnosis {
  checks: DoctorCheck[]
  actions: string[]
  problems: string[]
}

const TOOLS: [string, string][] = [
  ['fio', 'the engine of real runs'],
  ['losetup', 'scratch loop devices'],
  ['lsblk', 'the device list'],
  ['bonnie++', 'optional: the bonnie++ engine'],
]

/** Root and the tools real runs use (bonnie++ is optional). */
export async function prerequisiteChecks(): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [{ what: 'root', ok: isRoot(), detail: isRoot() ? 'yes' : ROOT_MESSAGE }]
  for (const [tool, need] of TOOLS) {
    const path = findExecutable(tool)
    let detail = path ? path : `not installed (${need})`
    if (path && tool === 'fio') detail = `${(await runCommand('fio', ['--version'])).stdout.trim()} (${path})`
    checks.push({ what: tool, ok: path !== null || tool === 'bonnie++', detail })
  }
  return checks
}

/**
 * `doctor`: what real runs need (root, fio, util-linux), the journals of crashed lab processes
 * replayed (schedulers and tunables restored, engines stopped, scratch loop devices detached), and
 * scratch loop devices nobody's journal accounts for. The CLI's `doctor` and the app's both call it.
 */
export async function diagnose(stateDir: string): Promise<Diagnosis> {
  const checks = await prerequisiteChecks()
  const actions: string[] = []
  const problems: string[] = []
  if (!isRoot()) return { checks, actions, problems }
  for (const r of await repairJournals(stateDir)) {
    if (r.ownerAlive) {
      actions.push(`journal ${r.journal}: ${r.owner} is still running; left alone`)
      continue
    }
    actions.push(...r.actions.map((a) => `${a} (journal of ${r.owner})`))
    problems.push(...r.problems.map((p) => `${p} (journal ${r.journal})`))
  }
  // scratch devices whose journal is gone (or never written): ours by the directory name
  const live = new Set(
    readJournals(stateDir).flatMap((j) =>
      j.data && j.ownerAlive ? j.data.loops.map((l) => l.backingFile) : [],
    ),
  )
  for (const l of await loopsBackedBy('/')) {
    const dir = dirname(l.backingFile)
    if (
      !dir.split('/').pop()!.startsWith(SCRATCH_PREFIX) ||
      live.has(l.backingFile) ||
      !scratchOwnerGone(dir)
    )
      continue
    for (const d of await detachLoopsBackedBy(l.backingFile))
      actions.push(`detached stray scratch device ${d} (${l.backingFile})`)
    rmSync(dir, { recursive: true, force: true })
    actions.push(`deleted ${dir}`)
  }
  return { checks, actions, problems }
}
