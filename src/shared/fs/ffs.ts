import type { FileSystemType } from './types'
import { BlockFs } from './block-fs'
import type { AtimeMode } from './block-fs'
import { atimeOption } from './options'
import { FFS_GEOMETRY } from './geometry'

/**
 * The 4.4BSD FFS of FreeBSD 2.2 (sys/ufs/ffs, sys/ufs/ufs), before soft updates: creating or
 * removing a file writes its inode and the directory block synchronously from the process
 * (ufs_makeinode → ffs_update with waitfor, ufs_direnter / ufs_dirremove → bwrite), so each costs
 * the disk two writes; other inode changes (times, sizes) are delayed writes (bdwrite) that the
 * syncer writes back later. Cylinder groups keep their inodes near their data (ffs_alloc.c).
 */
export const ffs: FileSystemType = {
  name: 'ffs',
  summary: 'BSD FFS without soft updates: create/unlink write inode and directory synchronously',
  era: 'FreeBSD 2.x and 4.4BSD (1994–1998)',
  params: [
    atimeOption(
      'strictatime',
      'sys/ufs/ufs/ufs_readwrite.c: a read marks IN_ACCESS, written with the inode later',
    ),
    {
      name: 'syncMetadata',
      kind: 'bool',
      default: true,
      unit: '',
      meaning: 'create/unlink write the inode and directory block synchronously (false: mount -o async)',
      source:
        'sys/ufs/ufs/ufs_vnops.c ufs_makeinode, ufs_lookup.c ufs_direnter (FreeBSD 2.2): bwrite unless MNT_ASYNC',
    },
  ],
  create: (v, host) =>
    new BlockFs(
      {
        type: 'ffs',
        geometry: FFS_GEOMETRY,
        atime: v.atime as AtimeMode,
        timestamps: 'second',
        journal: null,
        journalAt: 'start',
        journalBlocks: 0,
        dataJournal: false,
        delalloc: false,
        syncNamespace: v.syncMetadata as boolean,
      },
      host,
    ),
}
