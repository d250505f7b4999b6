import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** /sys/block, overridable for tests that want a fake tree (IOSCHED_LAB_SYSFS_BLOCK). */
export const sysBlockRoot = (): string => process.env.IOSCHED_LAB_SYSFS_BLOCK ?? '/sys/block'

export const sysBlockDir = (device: string): string => join(sysBlockRoot(), device)

/** A sysfs (or /proc) file's text without the trailing newline, or null when it cannot be read. */
export function readSys(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').replace(/\n$/, '')
  } catch {
    return null
  }
}

/** Entries of a sysfs directory, or [] when it does not exist. */
export function listSys(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

/** Write a value into a sysfs file; the error names the file, the value and the kernel's answer. */
export function writeSys(path: string, value: string): void {
  try {
    writeFileSync(path, value)
  } catch (e) {
    const err = e as NodeJS.ErrnoException
    const why =
      err.code === 'EACCES' || err.code === 'EPERM'
        ? 'permission denied (root needed)'
        : err.code === 'EINVAL'
          ? 'the kernel refused the value (EINVAL)'
          : err.code === 'ENOENT'
            ? 'no such file'
            : (err.code ?? err.message)
    throw new Error(`cannot write "${value}" to ${path}: ${why}`)
  }
}

/** A whole device's name from a path or a name: `/dev/sdb` → `sdb`. */
export const deviceName = (nameOrPath: string): string => nameOrPath.replace(/^\/dev\//, '')
