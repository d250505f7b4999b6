import { readFileSync } from 'node:fs'
import { release } from 'node:os'
import { join } from 'node:path'
import { parseSchedulerLine } from './scheduler-line'
import { listSys, readSys, sysBlockDir, sysBlockRoot } from './sysfs'

/**
 * The I/O schedulers the running kernel offers a device: what its queue/scheduler lists. A kernel
 * lists every elevator it has registered (built in, or a module already loaded) on each blk-mq
 * device, so a device not made yet (a scratch loop device) is answered from another device — an
 * existing loop device first (same driver), else any whole device. Reading it writes nothing.
 * Not every kernel has every scheduler: BFQ is optional (CONFIG_IOSCHED_BFQ), and a kernel built
 * without it — as this machine's 6.18 Firecracker guest kernel — offers none, mq-deadline, kyber.
 * A scheduler built as a module and not loaded yet is not listed, but selecting it loads it
 * (block/elevator.c asks for the module "NAME-iosched"): `moduleSchedulers` finds those.
 * Returns null when no device says (no sysfs).
 */
export function kernelOfferedSchedulers(device?: string): string[] | null {
  const read = (dev: string): string[] | null => {
    const line = readSys(join(sysBlockDir(dev), 'queue/scheduler'))
    return line === null ? null : parseSchedulerLine(line).available
  }
  if (device) return read(device)
  const all = listSys(sysBlockRoot()).sort()
  for (const dev of [
    ...all.filter((d) => d.startsWith('loop')),
    ...all.filter((d) => !d.startsWith('loop')),
  ]) {
    const s = read(dev)
    if (s !== null && s.length > 0) return s
  }
  return null
}

/**
 * Schedulers this kernel has as modules (loaded on selection): the aliases "NAME-iosched" in
 * /lib/modules/RELEASE/modules.alias (e.g. "alias bfq-iosched bfq"), or a module named after one.
 */
export function moduleSchedulers(modulesDir = join('/lib/modules', release())): string[] {
  const out = new Set<string>()
  try {
    for (const m of readFileSync(join(modulesDir, 'modules.alias'), 'utf8').matchAll(
      /^alias (\S+)-iosched /gm,
    ))
      out.add(m[1])
  } catch {
    /* no module index: a kernel without modules */
  }
  try {
    for (const m of readFileSync(join(modulesDir, 'modules.dep'), 'utf8').matchAll(
      /\/(bfq|kyber-iosched|mq-deadline)\.ko(?:\.\w+)?:/gm,
    ))
      out.add(m[1].replace(/-iosched$/, ''))
  } catch {
    /* ditto */
  }
  return [...out]
}

/**
 * `wanted` split into what the kernel offers and what it does not (with the reason), in the order
 * given. When the kernel cannot be asked, everything is taken as offered (a run then says why a
 * scheduler failed).
 */
export function offeredOf<T extends string>(
  wanted: readonly T[],
  device?: string,
  modulesDir?: string,
): { offered: T[]; missing: { scheduler: T; reason: string }[] } {
  const listed = kernelOfferedSchedulers(device)
  if (listed === null) return { offered: [...wanted], missing: [] }
  const have = [...new Set([...listed, ...moduleSchedulers(modulesDir)])]
  const where = device ? device : 'this machine'
  return {
    offered: wanted.filter((s) => have.includes(s)),
    missing: wanted
      .filter((s) => !have.includes(s))
      .map((s) => ({
        scheduler: s,
        reason: `the kernel of ${where} does not offer "${s}" (it offers ${have.join(', ')}; built without it, or its module is not installed)`,
      })),
  }
}
