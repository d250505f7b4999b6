import { join } from 'node:path'
import { parseSchedulerLine } from './scheduler-line'
import { listSys, readSys, sysBlockDir, writeSys } from './sysfs'

/** A device's scheduler and the values of its tunables (sysfs file → text), to put back later. */
export interface SchedulerSnapshot {
  scheduler: string
  tunables: Record<string, string>
}

const schedulerFile = (dev: string): string => join(sysBlockDir(dev), 'queue/scheduler')
const ioschedDir = (dev: string): string => join(sysBlockDir(dev), 'queue/iosched')

/** The schedulers the kernel offers for `dev` and the active one. */
export function readSchedulers(dev: string): { available: string[]; active: string | null } {
  const line = readSys(schedulerFile(dev))
  if (line === null) throw new Error(`${schedulerFile(dev)} cannot be read: is "${dev}" a block device?`)
  return parseSchedulerLine(line)
}

/**
 * Select `kernelName` for `dev`, then re-read the file to confirm (as the BFQ authors' S suite
 * does). Writing a name the kernel has as a module loads it; a name it lacks fails with the list.
 */
export function switchScheduler(dev: string, kernelName: string): void {
  const before = readSchedulers(dev)
  if (before.active === kernelName) return
  try {
    writeSys(schedulerFile(dev), kernelName)
  } catch (e) {
    throw new Error(
      `cannot select "${kernelName}" for ${dev}: ${(e as Error).message}; the kernel offers: ${before.available.join(', ') || 'nothing'}`,
    )
  }
  const after = readSchedulers(dev)
  if (after.active !== kernelName)
    throw new Error(
      `selected "${kernelName}" for ${dev} but ${schedulerFile(dev)} now reads "${after.available
        .map((s) => (s === after.active ? `[${s}]` : s))
        .join(' ')}"`,
    )
}

/** Every readable tunable of the active scheduler (empty for `none`). */
export function readTunables(dev: string): Record<string, string> {
  const out: Record<string, string> = {}
  const dir = ioschedDir(dev)
  for (const f of listSys(dir).sort()) {
    const v = readSys(join(dir, f))
    if (v !== null) out[f] = v.trim()
  }
  return out
}

/**
 * Write one tunable and read it back; returns what the kernel holds. Times in ms are kept in
 * jiffies, so a value may come back rounded by up to one jiffy (≤ 10 ms): `tolerance` allows that.
 * The error names the device, the file and the value.
 */
export function writeTunable(dev: string, name: string, value: string, tolerance = 0): string {
  const path = join(ioschedDir(dev), name)
  if (readSys(path) === null)
    throw new Error(
      `${path} does not exist: the active scheduler of ${dev} has no tunable "${name}" in this kernel (it has: ${Object.keys(readTunables(dev)).join(', ') || 'none'})`,
    )
  writeSys(path, value)
  const back = (readSys(path) ?? '').trim()
  if (back !== value && !(Math.abs(Number(back) - Number(value)) <= tolerance))
    throw new Error(`wrote "${value}" to ${path} but it reads back "${back}"`)
  return back
}

export function snapshotScheduler(dev: string): SchedulerSnapshot {
  const s = readSchedulers(dev)
  if (s.active === null) throw new Error(`${schedulerFile(dev)} shows no active scheduler`)
  return { scheduler: s.active, tunables: readTunables(dev) }
}

/**
 * Put back a snapshot: the scheduler (switching back gives it fresh default tunables) and then
 * every tunable whose value differs from the saved one. Tries everything; returns what it did and
 * what failed instead of stopping at the first problem.
 */
export function restoreScheduler(
  dev: string,
  snap: SchedulerSnapshot,
): { actions: string[]; problems: string[] } {
  const actions: string[] = []
  const problems: string[] = []
  try {
    const active = readSchedulers(dev).active
    if (active !== snap.scheduler) {
      switchScheduler(dev, snap.scheduler)
      actions.push(`${dev}: scheduler ${active} → ${snap.scheduler}`)
    }
  } catch (e) {
    problems.push((e as Error).message)
    return { actions, problems }
  }
  const now = readTunables(dev)
  for (const [k, v] of Object.entries(snap.tunables)) {
    if (now[k] === v) continue
    try {
      writeSys(join(ioschedDir(dev), k), v)
      actions.push(`${dev}: ${snap.scheduler} ${k} ${now[k]} → ${v}`)
    } catch (e) {
      problems.push((e as Error).message)
    }
  }
  const final = readTunables(dev)
  for (const [k, v] of Object.entries(snap.tunables))
    if (final[k] !== v && !problems.some((p) => p.includes(`/${k}:`)))
      problems.push(`${dev}: ${k} reads "${final[k]}" after restoring "${v}"`)
  return { actions, problems }
}
