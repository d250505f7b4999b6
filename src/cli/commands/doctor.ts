import { parseArgs } from 'node:util'
import { runCommand, findExecutable } from '../../main/services/real/exec'
import { readJournals } from '../../main/services/real/journal'
import { detachLoopsBackedBy, loopsBackedBy, scratchOwnerGone } from '../../main/services/real/loop-device'
import { isRoot, ROOT_MESSAGE } from '../../main/services/real/prerequisites'
import { repairJournals } from '../../main/services/real/repair'
import { labStateDir, SCRATCH_PREFIX } from '../../main/services/real/state-dir'
import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import type { CliCommand } from '../command'
import { InputError } from '../spec-file'

interface Check {
  what: string
  ok: boolean
  detail: string
}

/**
 * `iosched-lab doctor`: what real runs need (root, fio, util-linux), the journals of crashed lab
 * processes replayed by hand (schedulers and tunables restored, engines stopped, scratch loop
 * devices detached), and scratch loop devices nobody's journal accounts for.
 */
async function diagnose(
  stateDir: string,
): Promise<{ checks: Check[]; actions: string[]; problems: string[] }> {
  const checks: Check[] = []
  const actions: string[] = []
  const problems: string[] = []
  checks.push({ what: 'root', ok: isRoot(), detail: isRoot() ? 'yes' : ROOT_MESSAGE })
  for (const [tool, need] of [
    ['fio', 'the engine of real runs'],
    ['losetup', 'scratch loop devices'],
    ['lsblk', 'the device list'],
    ['bonnie++', 'optional: the bonnie++ engine'],
  ]) {
    const path = findExecutable(tool)
    let detail = path ? path : `not installed (${need})`
    if (path && tool === 'fio') detail = `${(await runCommand('fio', ['--version'])).stdout.trim()} (${path})`
    checks.push({ what: tool, ok: path !== null || tool === 'bonnie++', detail })
  }
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

export const doctorCommand: CliCommand = {
  name: 'doctor',
  usage: [
    'doctor [--json]                     check what real runs need; restore schedulers and detach loop devices a crashed run left',
  ],
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { json: { type: 'boolean' } },
      allowPositionals: true,
    })
    if (positionals.length > 0) throw new InputError([`doctor: unexpected argument "${positionals[0]}"`])
    const stateDir = labStateDir()
    const d = await diagnose(stateDir)
    const healthy = d.problems.length === 0 && d.checks.every((c) => c.ok)
    if (values.json) {
      io.out(JSON.stringify({ schema: 'iosched-lab/doctor@1', stateDir, healthy, ...d }, null, 2))
      return d.problems.length > 0 ? 1 : 0
    }
    for (const c of d.checks) io.out(`${c.ok ? 'ok ' : 'NO '} ${c.what}: ${c.detail}`)
    io.out(`state: ${stateDir}`)
    if (d.actions.length === 0 && d.problems.length === 0 && isRoot())
      io.out('nothing to repair: no device is left switched')
    for (const a of d.actions) io.out(`repaired: ${a}`)
    for (const p of d.problems) io.err(`iosched-lab: doctor: ${p}`)
    return d.problems.length > 0 ? 1 : 0
  },
}
