import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { BlockDevice } from './block-devices'
import { exclusiveOpenWorks } from './block-devices'

export type TargetCheck = { ok: true; warnings: string[] } | { ok: false; reason: string }

export interface TargetCheckOptions {
  /** The workload only reads (fio runs with --readonly). */
  readOnly: boolean
  /** What the user typed to confirm (`--confirm NAME`). */
  confirm?: string
  /** Override for tests: whether an O_EXCL open succeeds (default: try it). */
  exclusiveOpen?: (path: string) => boolean | null
}

/**
 * May the lab run on this whole device? Writes need a device with nothing on it (no mount,
 * partition, filesystem or RAID/LVM signature, swap, holder) and the user's typed confirmation of
 * its name; read-only runs may use a device in use, but the system disk only with that confirmation.
 */
export function checkDeviceTarget(
  dev: BlockDevice | undefined,
  requested: string,
  o: TargetCheckOptions,
): TargetCheck {
  const name = requested.replace(/^\/dev\//, '')
  if (!dev) {
    if (existsSync(join('/sys/class/block', name, 'partition')))
      return {
        ok: false,
        reason: `${name} is a partition: the I/O scheduler is set per whole device, so name the disk it is on (see iosched-lab devices)`,
      }
    return { ok: false, reason: `there is no block device named "${name}" (see iosched-lab devices)` }
  }
  const refuse = (why: string): TargetCheck => ({ ok: false, reason: `refusing ${dev.path}: ${why}` })
  if (dev.schedulers.length === 0)
    return refuse(
      'it has no I/O scheduler (queue/scheduler is missing or empty), so there is nothing to compare',
    )
  if (dev.sizeBytes === 0) return refuse('its size is 0 (no medium, or an unattached loop device)')
  const confirmed = o.confirm !== undefined && o.confirm.replace(/^\/dev\//, '') === dev.name
  const warnings: string[] = []
  if (!o.readOnly) {
    if (dev.readOnly) return refuse('it is read-only, and the workload writes')
    if (dev.systemDisk || dev.inUse.length > 0)
      return refuse(
        `it is in use (${[...new Set(dev.inUse)].join('; ')}), and the workload writes to the raw device, ` +
          'which would destroy that. Use a free device, a read-only workload, or the default scratch loop device.',
      )
    const excl = (o.exclusiveOpen ?? exclusiveOpenWorks)(dev.path)
    if (excl === false)
      return refuse('the kernel reports it busy (an exclusive open failed): something holds it open')
    if (!confirmed)
      return refuse(
        `the workload writes to the whole device and destroys all data on it; confirm by typing its name: --device ${dev.name} --confirm ${dev.name}`,
      )
    return { ok: true, warnings }
  }
  if (dev.systemDisk && !confirmed)
    return refuse(
      `it is the system disk (${dev.mounts.join('; ')}); even a read-only run switches its I/O scheduler under the running system. Confirm by typing its name: --device ${dev.name} --confirm ${dev.name}`,
    )
  if (dev.inUse.length > 0)
    warnings.push(
      `${dev.path} is in use (${dev.inUse.join('; ')}): the run only reads (fio --readonly), but its scheduler is switched for the run and other I/O on it disturbs the measurement`,
    )
  return { ok: true, warnings }
}
