import { findExecutable, runCommand } from './exec'
import { isRoot, ROOT_MESSAGE } from './prerequisites'
import { repairJournals } from './repair'
import { removeStrayScratch } from './stray-scratch'
import { removeStrayInstances } from './ftrace-capture'

/** One thing real runs need, and whether this machine has it. */
export interface DoctorCheck {
  what: string
  ok: boolean
  detail: string
}

export interface Diagnosis {
  checks: DoctorCheck[]
  /** What doctor changed; empty: nothing to repair. */
  actions: string[]
  /** What doctor looked at and left as it was: a running lab's journal, a device already restored. */
  notes: string[]
  problems: string[]
}

const TOOLS: [string, string][] = [
  ['fio', 'the engine of real runs'],
  ['losetup', 'scratch loop devices'],
  ['lsblk', 'the device list'],
  ['bonnie++', 'optional: the bonnie++ engine'],
  ['blktrace', 'optional: per-process request stages of real runs (package blktrace, with blkparse)'],
]

const OPTIONAL = new Set(['bonnie++', 'blktrace'])

/** Root and the tools real runs use (bonnie++ and blktrace are optional). */
export async function prerequisiteChecks(): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [{ what: 'root', ok: isRoot(), detail: isRoot() ? 'yes' : ROOT_MESSAGE }]
  for (const [tool, need] of TOOLS) {
    const path = findExecutable(tool)
    let detail = path ? path : `not installed (${need})`
    if (path && tool === 'fio') detail = `${(await runCommand('fio', ['--version'])).stdout.trim()} (${path})`
    checks.push({ what: tool, ok: path !== null || OPTIONAL.has(tool), detail })
  }
  return checks
}

/**
 * `doctor`: what real runs need (root, fio, util-linux), the journals of crashed lab processes
 * replayed (schedulers and tunables restored, engines stopped, scratch loop devices detached), and
 * scratch devices and directories nobody's journal accounts for (stray-scratch.ts; `scratchDir`:
 * where scratch directories are made, by default IOSCHED_LAB_SCRATCH_DIR or the temp directory).
 * The CLI's `doctor` and the app's both call it.
 */
export async function diagnose(stateDir: string, scratchDir?: string): Promise<Diagnosis> {
  const checks = await prerequisiteChecks()
  const actions: string[] = []
  const notes: string[] = []
  const problems: string[] = []
  if (!isRoot()) return { checks, actions, notes, problems }
  for (const r of await repairJournals(stateDir)) {
    if (r.ownerAlive) {
      notes.push(`journal ${r.journal}: ${r.owner} is still running; left alone`)
      continue
    }
    actions.push(...r.actions.map((a) => `${a} (journal of ${r.owner})`))
    notes.push(...r.notes.map((n) => `${n} (journal of ${r.owner})`))
    problems.push(...r.problems.map((p) => `${p} (journal ${r.journal})`))
  }
  // scratch devices and directories whose journal is gone (or never written): ours by the name
  actions.push(...(await removeStrayScratch(stateDir, scratchDir)))
  // tracefs instances of crashed lab processes (ftrace-capture.ts)
  actions.push(...removeStrayInstances())
  return { checks, actions, notes, problems }
}
