// Atomic file writes: a temporary file beside the target, written in chunks, fsync, rename over
// the target, fsync of the folder. A crash at any moment leaves the old file or the new one; a
// temporary file left by a crash starts with a dot and ends in .tmp, so listings skip it.
import { randomBytes } from 'node:crypto'
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { alive } from './process-alive'

export interface AtomicWriteOptions {
  /** Bytes per write call (default 1 MiB). */
  chunkBytes?: number
  /** Called after each chunk with the bytes written so far (tests use it to slow a write down). */
  onChunk?: (written: number, total: number) => void | Promise<void>
}

/** Whether a file name is one of our temporary files. */
export const isTempName = (name: string): boolean => name.startsWith('.') && name.endsWith('.tmp')

/** Write `data` to `path` atomically. */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  opts: AtomicWriteOptions = {},
): Promise<void> {
  const dir = dirname(path)
  await mkdir(dir, { recursive: true })
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data
  const chunk = Math.max(1, opts.chunkBytes ?? 2 ** 20)
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
  const fh = await open(tmp, 'wx', 0o644)
  try {
    try {
      for (let at = 0; at < bytes.length;) {
        const { bytesWritten } = await fh.write(bytes, at, Math.min(chunk, bytes.length - at))
        at += bytesWritten
        await opts.onChunk?.(at, bytes.length)
      }
      await fh.sync()
    } catch (e) {
      await fh.close().catch(() => undefined)
      throw e
    }
    await fh.close() // (a close can fail too, on some file systems: then so does the write)
    await rename(tmp, path)
  } catch (e) {
    // a full disk, a kill … : the temporary file goes, the target is as it was
    await rm(tmp, { force: true }).catch(() => undefined)
    throw e
  }
  // The rename itself is durable only once the folder is synced (not possible on every platform).
  try {
    const d = await open(dir, 'r')
    await d.sync().finally(() => d.close())
  } catch {
    /* best effort */
  }
}

/**
 * Remove the temporary files a killed writer left for `path`: `.NAME.PID.HEX.tmp` of a process
 * that is no longer running. Returns how many were removed.
 */
export async function removeStaleTemps(path: string): Promise<number> {
  const dir = dirname(path)
  const prefix = `.${basename(path)}.`
  let names: string[]
  try {
    names = await readdir(dir)
  } catch {
    return 0
  }
  let n = 0
  for (const name of names) {
    if (!name.startsWith(prefix) || !isTempName(name)) continue
    const m = /^(\d+)\.[0-9a-f]+\.tmp$/.exec(name.slice(prefix.length))
    if (!m || Number(m[1]) === process.pid || alive(Number(m[1]))) continue
    await rm(join(dir, name), { force: true })
    n++
  }
  return n
}
