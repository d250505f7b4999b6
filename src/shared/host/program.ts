import type { Rng } from '../sim/rng'
import type { SimTime } from '../sim/time'
import type { Op } from '../block/types'
import type { SimFile } from './files'
import type { MetaOp } from '../fs/types'
import type { AccessAdvice } from './readahead'

/**
 * The system calls a workload process can make. Each `Program.step` makes exactly one; the kernel
 * calls `step` again when that call returns (which may be much later, after CPU waits and I/O).
 */
export interface Sys {
  readonly now: SimTime
  /** This process's own random stream. */
  readonly rng: Rng
  /** CPU time this process and its exited children have used so far, ns (for %CPU per phase). */
  readonly cpuUsed: SimTime
  /** read(2): buffered through the page cache and read-ahead, or O_DIRECT. */
  read(file: SimFile, offset: number, bytes: number, direct: boolean): void
  /** write(2): buffered (dirty pages, writeback later, throttling) or O_DIRECT. */
  write(file: SimFile, offset: number, bytes: number, direct: boolean): void
  /**
   * fsync(2), or fdatasync(2) with `datasync`: write back the file's dirty pages and wait for them,
   * and for what the file system needs to make them durable (a journal commit, the inode).
   * `counted` false leaves it out of the process's operations and latencies (fio reports syncs
   * apart from its I/O).
   */
  fsync(file: SimFile, datasync?: boolean, counted?: boolean): void
  /** open(O_TRUNC) of an existing file: the file system frees its blocks (the next writes allocate). */
  truncate(file: SimFile): void
  /** A file system that models metadata is mounted: `metaOp` may be used. */
  readonly fsMetadata: boolean
  /** create, stat or unlink of file number `n` in the process's directory, through the file system. */
  metaOp(op: MetaOp, n: number): void
  /**
   * posix_fadvise(POSIX_FADV_DONTNEED) on a byte range: start writeback of its dirty pages (not
   * waiting) and drop its clean pages from the page cache. Not counted as an I/O operation.
   */
  fadviseDontNeed(file: SimFile, offset: number, bytes: number): void
  /**
   * posix_fadvise(POSIX_FADV_NORMAL | SEQUENTIAL | RANDOM) on the process's open file: how its
   * read-ahead works from now on (readahead.ts adviseAccess). Takes no time of its own and is
   * made alongside the step's one call.
   */
  adviseAccess(file: SimFile, advice: AccessAdvice): void
  /**
   * ioctl(BLKFLSBUF) on the block device: write back the dirty pages of its page cache, wait for
   * them, and drop its clean pages. Not counted as an I/O operation.
   */
  flushBlockDevice(): void
  /**
   * open(2) and close(2) of the block device itself (buffered or O_DIRECT I/O on /dev). The
   * kernel counts its openers, and the last close writes the device's page cache back, waits,
   * and drops it (block/bdev.c, 6.x: blkdev_put_whole → blkdev_flush_mapping: sync_blockdev,
   * kill_bdev): a later opener finds nothing cached. Not counted as I/O operations.
   */
  openBlockDevice(): void
  closeBlockDevice(): void
  /** The process's figures (run time) end now, though it goes on (fio: before it closes its files). */
  stopClock(): void
  /** Start this process's statistics (bytes, operations, latencies, start time) again from now. */
  resetStats(): void
  /** Burn CPU for `ns` (a CPU-bound loop, or computation between I/Os). */
  compute(ns: SimTime): void
  /** A read or write on a character device: /dev/zero fills `bytes` (copy cost), /dev/null discards. */
  charDevice(bytes: number, fill: boolean): void
  /** Sleep without using the CPU (think time, a rate limit). */
  sleep(ns: SimTime): void
  /**
   * Asynchronous direct I/O (libaio/io_uring): returns as soon as it is submitted. `sync` marks
   * the request synchronous for the schedulers (true for O_DIRECT; false replays async writeback).
   */
  aioSubmit(file: SimFile, offset: number, bytes: number, op: Op, sync?: boolean): void
  /**
   * io_getevents: wait until at least `min` asynchronous I/Os have completed, then reap at most
   * `max` of them (all by default), oldest first; `reaped` then says how many.
   */
  aioWait(min: number, max?: number): void
  /** Completions collected by the last `aioWait`. */
  readonly reaped: number
  /** Asynchronous I/Os submitted and not yet reaped. */
  readonly aioInFlight: number
  /**
   * Use `pages` pages of this process's anonymous memory from page `first` (4 KiB each), with
   * `cpuPerPage` ns of computation on each: faults allocate them, or read them back from swap.
   */
  touch(first: number, pages: number, write: boolean, cpuPerPage: SimTime): void
  /** fork + exec a child process running `program`; returns once it is created. */
  spawn(name: string, program: Program): void
  /** wait(2): block until a child has exited (returns at once if one already has, or if none live). */
  waitChild(): void
  /** Children alive (started, not yet exited). */
  readonly liveChildren: number
  /** Finish the process. */
  exit(): void
}

/** A workload process: a small state machine driven by `step`. */
export interface Program {
  step(sys: Sys): void
  /** Fraction of its work done, 0…1, or NaN when it runs until stopped. */
  progress(): number
  /** Results per phase, for tools that report them (bonnie++, iozone). */
  phases?(): PhaseResult[]
}

/** One phase of a tool's run, as the tool would report it. */
export interface PhaseResult {
  name: string
  bytes: number
  /** Operations the tool counts in this phase (seeks, files created …). */
  ops: number
  seconds: number
  cpuSeconds: number
}
