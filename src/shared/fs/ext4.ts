import type { FileSystemType } from './types'
import { BlockFs } from './block-fs'
import type { AtimeMode } from './block-fs'
import type { CommitIo } from './journal'
import {
  atimeOption,
  commitInterval,
  commitIoOption,
  commitOption,
  dataOption,
  defaultJournalBlocks,
} from './options'
import { EXT4_GEOMETRY } from './geometry'
import { BLOCK_SECTORS } from './layout'

/**
 * ext4 (fs/ext4 on jbd2): flex_bg groups, 256-byte inodes with fine timestamps, and delayed
 * allocation — a write only reserves; blocks are allocated when writeback writes the pages
 * (ext4_writepages → mpage_map_and_submit_extent), and only then does the inode join the
 * transaction's ordered list (ext4_map_blocks → ext4_jbd2_inode_add_write for new blocks). The
 * jbd2 commit therefore does not write delayed data; it waits for the ordered inodes' data already
 * under writeback (jbd2_journal_commit_transaction: journal_submit_data_buffers /
 * journal_finish_inode_data_buffers), then logs the metadata and writes the commit record. fsync
 * writes and waits for the file's data first, then waits for the commit of the transaction that
 * last changed the inode — for fdatasync, only when the size or the blocks changed (ext4_sync_file:
 * file_write_and_wait_range, then jbd2_complete_transaction of i_datasync_tid).
 */
export const ext4: FileSystemType = {
  name: 'ext4',
  summary:
    'jbd2 journal (the jbd2 thread commits), delayed allocation, relatime; fsync waits for its own data, then the commit',
  era: 'Linux 2.6.28–today',
  params: [
    dataOption(
      'fs/ext4/super.c: data=ordered by default (parse_options / set_opt(DATA_FLAGS) when no data= is given)',
    ),
    commitOption(
      'include/linux/jbd2.h JBD2_DEFAULT_MAX_COMMIT_AGE = 5; fs/jbd2/journal.c: j_commit_interval = HZ × 5',
    ),
    atimeOption(
      'relatime',
      'fs/namespace.c: relatime is the default from 2.6.30; fs/inode.c relatime_need_update',
    ),
    {
      name: 'delalloc',
      kind: 'bool',
      default: true,
      unit: '',
      meaning: 'delayed allocation: blocks are allocated at writeback, not at write()',
      source: 'fs/ext4/super.c: set_opt(sb, DELALLOC) by default since 2.6.28',
    },
    {
      name: 'barrier',
      kind: 'bool',
      default: true,
      unit: '',
      meaning:
        'barrier=: flush the device’s write cache before the commit record and force the record to the media',
      source:
        'fs/ext4/super.c: set_opt(sb, BARRIER) by default; fs/jbd2/commit.c journal_submit_commit_record: REQ_PREFLUSH | REQ_FUA when JBD2_BARRIER',
    },
    commitIoOption(
      'sync',
      'fs/jbd2/commit.c jbd2_journal_commit_transaction (4.x–6.x): journal blocks submitted REQ_SYNC, the commit record REQ_SYNC (with REQ_PREFLUSH | REQ_FUA under barrier); ordered data through WB_SYNC_ALL writeback (REQ_SYNC)',
    ),
  ],
  create: (v, host) =>
    new BlockFs(
      {
        type: 'ext4',
        geometry: EXT4_GEOMETRY,
        atime: v.atime as AtimeMode,
        timestamps: 'tick',
        journal: {
          name: 'jbd2/sda1-8',
          pid: 5,
          commitInterval: commitInterval(v),
          ordered: v.data === 'ordered',
          submitOrderedData: !(v.delalloc as boolean),
          io: v.commitIo as CommitIo,
          barrier: v.barrier as boolean,
          tagsPerDescriptor: 250,
        },
        journalAt: 'middle',
        journalBlocks: defaultJournalBlocks(host.queue.deviceInfo.capacitySectors / BLOCK_SECTORS),
        dataJournal: v.data === 'journal',
        delalloc: (v.delalloc as boolean) && v.data !== 'journal',
        syncNamespace: false,
      },
      host,
    ),
}
