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
import { EXT2_GEOMETRY } from './geometry'
import { BLOCK_SECTORS } from './layout'

/**
 * ext3 (fs/ext3 on jbd, 2.4.15–4.2): ext2's layout with a journal. Changed metadata joins the
 * running transaction (ext3_dirty_inode, ext3_journal_dirty_metadata); kjournald commits it every
 * `commit=` seconds or when an fsync asks (ext3_sync_file → ext3_force_commit). In data=ordered
 * every write's data buffers join the transaction too (ext3_ordered_commit_write →
 * journal_dirty_data), and the commit writes them — everyone's — and waits for them before it
 * logs the metadata (journal_commit_transaction: journal_submit_data_buffers, then the t_locked_list
 * wait, then the descriptor and metadata blocks, then the commit record). So an fsync in ordered
 * mode waits for all the data dirtied since the last commit.
 */
export const ext3: FileSystemType = {
  name: 'ext3',
  summary:
    'ext2 + jbd journal: kjournald commits every commit= s or at fsync; data=ordered writes the transaction’s data first',
  era: 'Linux 2.4.15–4.2 (the common default 2001–2010)',
  params: [
    dataOption(
      'fs/ext3/super.c: data=ordered unless mounted otherwise (2.4.15 on; CONFIG_EXT3_DEFAULTS_TO_ORDERED from 2.6.30)',
    ),
    commitOption(
      'include/linux/jbd.h JBD_DEFAULT_MAX_COMMIT_AGE = 5; fs/jbd/journal.c journal_init_common: j_commit_interval = HZ × 5',
    ),
    atimeOption(
      'strictatime',
      'fs/inode.c touch_atime: every read that moves the clock updates atime before 2.6.30 (relatime default from 2.6.30, fs/namespace.c do_mount)',
    ),
    {
      name: 'barrier',
      kind: 'bool',
      default: false,
      unit: '',
      meaning:
        'barrier=: flush the device’s write cache before the commit record and force the record to the media',
      source:
        'fs/ext3/super.c: barrier=0 by default until Linux 3.1 ("ext3: make barrier options consistent with ext4" turned it on); fs/jbd/commit.c journal_write_commit_record: set_buffer_ordered when JFS_BARRIER',
    },
    commitIoOption(
      'async',
      'fs/jbd/commit.c journal_commit_transaction (2.6.27): data, metadata and commit blocks submitted with submit_bh(WRITE); 2.6.29’s ext3 latency fixes made fsync-driven commits WRITE_SYNC (t_synchronous_commit): sync-for-fsync',
    ),
  ],
  create: (v, host) =>
    new BlockFs(
      {
        type: 'ext3',
        geometry: EXT2_GEOMETRY,
        atime: v.atime as AtimeMode,
        timestamps: 'second',
        journal: {
          name: 'kjournald',
          pid: 5,
          commitInterval: commitInterval(v),
          ordered: v.data === 'ordered',
          submitOrderedData: true,
          io: v.commitIo as CommitIo,
          barrier: v.barrier as boolean,
          tagsPerDescriptor: 508,
        },
        journalAt: 'start',
        journalBlocks: defaultJournalBlocks(host.queue.deviceInfo.capacitySectors / BLOCK_SECTORS),
        dataJournal: v.data === 'journal',
        delalloc: false,
        syncNamespace: false,
      },
      host,
    ),
}
