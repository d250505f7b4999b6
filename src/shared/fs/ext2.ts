import type { FileSystemType } from './types'
import { BlockFs } from './block-fs'
import type { AtimeMode } from './block-fs'
import { atimeOption } from './options'
import { EXT2_GEOMETRY } from './geometry'

/**
 * ext2 (fs/ext2): no journal. A changed inode, bitmap or directory block is a dirty buffer,
 * written back by writeback like file data; fsync writes the file's data and then its inode block
 * from the process (ext2_fsync → sync_inode / write_inode with wait; fdatasync only when the size
 * or the blocks changed).
 */
export const ext2: FileSystemType = {
  name: 'ext2',
  summary: 'no journal: metadata is written back like data; fsync writes the inode itself',
  era: 'Linux 0.99–today (the default before ext3, 2001)',
  params: [
    atimeOption(
      'strictatime',
      'fs/inode.c touch_atime: before 2.6.30 every read that moves the clock updates atime (relatime became the default in 2.6.30, fs/namespace.c do_mount)',
    ),
  ],
  create: (v, host) =>
    new BlockFs(
      {
        type: 'ext2',
        geometry: EXT2_GEOMETRY,
        atime: v.atime as AtimeMode,
        timestamps: 'second',
        journal: null,
        journalAt: 'start',
        journalBlocks: 0,
        dataJournal: false,
        delalloc: false,
        syncNamespace: false,
      },
      host,
    ),
}
