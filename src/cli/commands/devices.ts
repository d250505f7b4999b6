import { parseArgs } from 'node:util'
import type { BlockDevice } from '../../main/services/real/block-devices'
import { listBlockDevices } from '../../main/services/real/block-devices'
import { isRoot, ROOT_MESSAGE } from '../../main/services/real/prerequisites'
import { repairJournals } from '../../main/services/real/repair'
import { labStateDir } from '../../main/services/real/state-dir'
import type { CliCommand, CliIo } from '../command'
import { InputError } from '../spec-file'
import { renderTable } from '../table'
import { bytes } from '../../shared/util/people-numbers'

/** Sizes in binary units, as the app's device list shows them (and lsblk counts them). */
const size = (b: number): string => (b === 0 ? '0' : bytes(b))

const schedulers = (d: BlockDevice): string =>
  d.schedulers.map((s) => (s === d.activeScheduler ? `[${s}]` : s)).join(' ') || '(none)'

const status = (d: BlockDevice): string =>
  d.sizeBytes === 0
    ? 'empty (size 0)'
    : d.schedulers.length === 0
      ? 'no I/O scheduler'
      : d.systemDisk
        ? `system disk: ${d.inUse.join('; ')}`
        : d.inUse.length > 0
          ? `in use: ${d.inUse.join('; ')}`
          : d.readOnly
            ? 'read-only'
            : 'free (writes need --confirm NAME)'

/** Journals left by a crashed lab process are replayed at the start of every real-device command. */
export async function repairAtStart(io: CliIo): Promise<void> {
  if (!isRoot()) return
  for (const r of await repairJournals(labStateDir())) {
    if (r.ownerAlive) continue
    for (const a of r.actions) io.err(`iosched-lab: repaired after an earlier crash (${r.owner}): ${a}`)
    for (const p of r.problems) io.err(`iosched-lab: could not repair ${r.journal}: ${p}`)
  }
}

/** The device list as text: one row per device, sizes in the app's units (GiB, MiB). */
export function devicesTable(devices: readonly BlockDevice[]): string {
  const rows = devices.map((d) => [
    d.name,
    size(d.sizeBytes),
    d.type,
    d.rotational ? 'yes' : 'no',
    d.model ?? (d.loopBackingFile ? `loop: ${d.loopBackingFile}` : '-'),
    schedulers(d),
    status(d),
  ])
  return renderTable(['device', 'size', 'type', 'rotational', 'model', 'schedulers', 'status'], rows, [
    'l',
    'r',
    'l',
    'l',
    'l',
    'l',
    'l',
  ])
}

export const devicesCommand: CliCommand = {
  name: 'devices',
  usage: [
    'devices [--json]                    block devices: size, rotational, schedulers (active in brackets), in use or free',
  ],
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { json: { type: 'boolean' } },
      allowPositionals: true,
    })
    if (positionals.length > 0) throw new InputError([`devices: unexpected argument "${positionals[0]}"`])
    await repairAtStart(io)
    const devices = await listBlockDevices()
    if (values.json) {
      io.out(JSON.stringify({ schema: 'iosched-lab/devices@1', root: isRoot(), devices }, null, 2))
      return 0
    }
    io.out(devicesTable(devices))
    if (!isRoot()) io.out(`\nnote: ${ROOT_MESSAGE}`)
    return 0
  },
}
