import type { BlockQueue } from '../block/queue'
import type { Bio, IoContext } from '../block/types'
import type { Engine } from '../sim/engine'
import type { SimTime } from '../sim/time'
import type { FileAllocator, SimFile } from '../host/files'
import type { PageCache } from '../host/pagecache'
import type { ParamSpec, ParamValues } from '../util/params'

/** What a file system may ask of the kernel around it. */
export interface FsHost {
  readonly engine: Engine
  readonly queue: BlockQueue
  readonly cache: PageCache
  readonly hz: number
  /** Register a file the file system keeps for itself (its metadata blocks) with the page cache. */
  registerInternal(f: SimFile): void
}

/** A process as the file system sees it: it can be put to sleep and woken with a continuation. */
export interface FsTask {
  readonly pid: number
  readonly now: SimTime
  resume(k: number): void
}

/** A process that may write metadata itself: an I/O context with its list of bios to submit. */
export interface FsIoTask extends FsTask, IoContext {
  readonly bios: Bio[]
}

/** sync(): nothing to wait for. */
export const SYNC_DONE = 0
/** sync(): the caller sleeps; the file system resumes it. */
export const SYNC_SLEEP = 1
/** sync(): bios for the metadata file are in the caller's list: submit them, wait for its writeback. */
export const SYNC_SUBMIT = 2

/** Namespace operations of a process (bonnie++'s small-file tests). */
export type MetaOp = 'create' | 'stat' | 'unlink'

/** What a namespace operation needs of the calling process afterwards. */
export type MetaOutcome =
  /** Done (CPU only, or the blocks it dirtied are written later). */
  | { kind: 'done' }
  /** Read this page of the metadata file (the inode's block is not cached). */
  | { kind: 'read'; file: SimFile; page: number }
  /** Wait until the metadata file has nothing under writeback (synchronous metadata writes). */
  | { kind: 'wait-writeback'; file: SimFile }

/**
 * A modelled file system: the layer between the workloads' system calls and the page cache that
 * decides which metadata requests the block layer sees, from which context, and what fsync waits
 * for. Each hook is called by the host's paths only when a file system is mounted; the raw device
 * (`/dev`) never reaches it.
 */
export interface FileSystem {
  readonly type: string
  /** Reserve the regions the file system keeps for itself (group metadata, the journal). */
  reserve(alloc: FileAllocator, capacitySectors: number): void
  /** Files are laid out: build the metadata map, start the journal thread. */
  start(files: readonly SimFile[]): void
  /** A buffered or direct write of `bytes` at `offset` of `f` (dirtied pages, or went to the device). */
  written(t: FsTask, f: SimFile, offset: number, bytes: number, direct: boolean): void
  /** A read of `f` finished (atime). */
  accessed(t: FsTask, f: SimFile): void
  /** open(O_TRUNC): the file's blocks are freed; its next writes allocate again. */
  truncate(t: FsTask, f: SimFile): void
  /** fsync waits for its own data before asking for a commit (ext4), or after (ext2/ext3). */
  readonly dataBeforeCommit: boolean
  /**
   * fsync/fdatasync once the file's own data was written: SYNC_DONE, SYNC_SLEEP (the caller is
   * resumed with `k` when what it waits for is on disk) or SYNC_SUBMIT (metadata bios to submit).
   */
  sync(t: FsIoTask, f: SimFile, datasync: boolean, k: number): number
  /** The file holding the metadata blocks at their home locations (null before start). */
  readonly meta: SimFile | null
  /** create, stat or unlink of file number `n` of process `t`'s directory. */
  metaOp(t: FsIoTask, op: MetaOp, n: number): MetaOutcome
  /** Pages of `f` finished writing back. */
  pagesWritten(f: SimFile): void
  /** Counters for tests and reports. */
  readonly stats: FsStats
}

export interface FsStats {
  commits: number
  /** Journal blocks written (descriptors, metadata copies, commit records). */
  journalBlocks: number
  /** Metadata blocks written or read at their home location by the processes themselves. */
  syncMetaWrites: number
}

/** One registry entry per file system, in its own file: mount options as data and a factory. */
export interface FileSystemType {
  readonly name: string
  readonly summary: string
  /** Kernels it stands for. */
  readonly era: string
  readonly params: readonly ParamSpec[]
  create(values: ParamValues, host: FsHost): FileSystem | null
}

/** A resolved `host.filesystem`: the type and every option with its default filled in. */
export interface FsSpec {
  type: string
  values: ParamValues
}
