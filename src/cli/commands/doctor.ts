import { parseArgs } from 'node:util'
import { diagnose } from '../../main/services/real/doctor'
import { isRoot } from '../../main/services/real/prerequisites'
import { labStateDir } from '../../main/services/real/state-dir'
import type { CliCommand } from '../command'
import { InputError } from '../spec-file'

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
