import type { ParamSpec } from '../util/params'
import { MS, SECOND } from '../sim/time'
import type { ParamValues } from '../util/params'
import type { CommitIo } from './journal'

/** Mount options several file systems share, as data; each file system sets its own defaults. */

export const atimeOption = (def: string, source: string): ParamSpec => ({
  name: 'atime',
  kind: 'enum',
  values: ['strictatime', 'relatime', 'noatime'],
  default: def,
  unit: '',
  meaning:
    'access times: every read that moves the clock updates the inode (strictatime), only when older than the last change or a day old (relatime), never (noatime)',
  source,
})

export const commitOption = (source: string): ParamSpec => ({
  name: 'commitSeconds',
  kind: 'number',
  default: 5,
  unit: 's',
  meaning: 'commit=: the journal commits a transaction this long after it started (or at an fsync)',
  min: 0.01,
  max: 3600,
  source,
})

export const dataOption = (source: string): ParamSpec => ({
  name: 'data',
  kind: 'enum',
  values: ['ordered', 'writeback', 'journal'],
  default: 'ordered',
  unit: '',
  meaning:
    "data=: ordered — a transaction's data is on disk before its commit record; writeback — data is not ordered; journal — data is logged too",
  source,
})

export const commitIoOption = (def: CommitIo, source: string): ParamSpec => ({
  name: 'commitIo',
  kind: 'enum',
  values: ['async', 'sync-for-fsync', 'sync'],
  default: def,
  unit: '',
  meaning:
    "how the journal thread's writes reach the I/O scheduler: as asynchronous writes, as synchronous ones only for a commit an fsync waits for, or always synchronous",
  source,
})

/** The commit interval in simulator time. */
export const commitInterval = (v: ParamValues): number =>
  Math.max(MS, Math.round((v.commitSeconds as number) * SECOND))

/**
 * mke2fs's default journal size for a file system of `blocks` 4 KiB blocks (e2fsprogs
 * lib/ext2fs/mkjournal.c ext2fs_default_journal_size, 1.41/1.42): 4 MiB below 1 GiB … 128 MiB from
 * 4 GiB on.
 */
export function defaultJournalBlocks(blocks: number): number {
  if (blocks < 32768) return 1024
  if (blocks < 256 * 1024) return 4096
  if (blocks < 512 * 1024) return 8192
  if (blocks < 1024 * 1024) return 16384
  return 32768
}
