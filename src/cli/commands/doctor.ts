import { parseArgs } from 'node:util'
import type { Diagnosis } from '../../main/services/real/doctor'
import { diagnose } from '../../main/services/real/doctor'
import { isRoot } from '../../main/services/real/prerequisites'
import { labStateDir } from '../../main/services/real/state-dir'
import type { CliCommand } from '../command'
import { InputError } from '../spec-file'

/**
 * What `doctor` prints: the checks, then what it changed — or "nothing to repair" when it changed
 * nothing (what it only looked at, like a running lab's journal, is listed as checked); problems
 * go to stderr. Without root nothing is repaired, so nothing is said about it.
 */
export function doctorText(d: Diagnosis, stateDir: string, root: boolean): { out: string[]; err: string[] } {
  const out = d.checks.map((c) => `${c.ok ? 'ok ' : 'NO '} ${c.what}: ${c.detail}`)
  out.push(`state: ${stateDir}`)
  out.push(...d.notes.map((n) => `checked: ${n}`))
  out.push(...d.actions.map((a) => `repaired: ${a}`))
  if (root && d.actions.length === 0 && d.problems.length === 0)
    out.push('nothing to repair: no device is left switched')
  return { out, err: d.problems.map((p) => `iosched-lab: doctor: ${p}`) }
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
    const text = doctorText(d, stateDir, isRoot())
    for (const l of text.out) io.out(l)
    for (const l of text.err) io.err(l)
    return d.problems.length > 0 ? 1 : 0
  },
}
