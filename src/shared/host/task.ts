import type { SlotWaiter } from '../block/queue'
import type { Bio, BioOwner, Op } from '../block/types'
import { READ, WRITE } from '../block/types'
import type { MetaOp } from '../fs/types'
import {
  K_AIO,
  K_AIO_WAIT,
  K_DIRECT,
  K_DIRECT_NEXT,
  K_DIRECT_WAIT,
  K_EXITED,
  K_FADVISE,
  K_FLUSHBUF,
  K_FSYNC,
  K_META,
  K_READ,
  K_SPAWN,
  K_STEP,
  K_SUBMIT,
  K_TOUCH,
  K_WAIT_CHILD,
  K_WRITE,
  TASK_DONE,
  TASK_RUN,
} from './continuations'
import { continueTask } from './continue-task'
import { DIO_UNCHECKED } from './dio-coherence'
import type { AioSlot } from './direct-path'
import { aioComplete } from './direct-path'
import { touchLoop } from './fault-path'
import type { SimFile } from './files'
import { PAGE } from './files'
import { childExited } from './process-tree'
import type { Program, Sys } from './program'
import type { AccessAdvice } from './readahead'
import { adviseAccess } from './readahead'
import { raState } from './read-path'
import type { Allocator } from './reclaim'
import { TaskState } from './task-state'
import type { SimTime } from '../sim/time'

/**
 * A workload process: the system calls its program makes, each turned into CPU bursts, page-cache
 * work, bios and waits by the task's state machine (continue-task.ts). The continuation `k` always
 * runs while the task holds a CPU; the read, write, direct-I/O and fault paths live in files named
 * for them, as do the submission of its bios and its children; what it is to the kernel (its
 * state, results and time account) is the class it extends (task-state.ts).
 */
export class Task extends TaskState implements Sys, SlotWaiter, BioOwner, Allocator {
  /** Start running the program. */
  start(): void {
    this.state = TASK_RUN
    this.startedAt = this.now
    this.beginAccount(this.now, this.cpuTime, true)
    this.k = K_STEP
    this.justForked = true
    this.kernel.cpu.run(this, 0)
  }

  // --- Sys: each call sets the continuation and asks for the CPU it costs ---

  read(file: SimFile, offset: number, bytes: number, direct: boolean): void {
    this.begin(file, offset, bytes, READ)
    this.k = direct || file.raw ? K_DIRECT : K_READ
    this.directRange()
    if (this.k === K_READ) {
      this.pg = Math.floor(offset / PAGE)
      this.endPg = Math.min(Math.ceil((offset + bytes) / PAGE), file.pageCount)
    } else if (!file.raw && this.kernel.fs !== null) this.kernel.fs.accessed(this, file)
    this.burst(this.kernel.h.syscall + (this.k === K_DIRECT ? this.dioWork(READ, bytes) : 0))
  }

  write(file: SimFile, offset: number, bytes: number, direct: boolean): void {
    this.begin(file, offset, bytes, WRITE)
    this.k = direct || file.raw ? K_DIRECT : K_WRITE
    this.directRange()
    const fs = this.kernel.fs
    if (fs !== null && this.k === K_DIRECT && !file.raw) fs.written(this, file, offset, bytes, true)
    this.burst(
      this.kernel.h.syscall + (this.k === K_DIRECT ? this.kernel.h.submit + this.dioWork(WRITE, bytes) : 0),
    )
  }

  fsync(file: SimFile, datasync = false, counted = true): void {
    this.begin(file, 0, 0, WRITE)
    this.datasync = datasync
    this.opCounted = counted
    this.k = K_FSYNC
    this.burst(this.kernel.h.syscall)
  }

  truncate(file: SimFile): void {
    if (!file.raw) this.kernel.fs?.truncate(this, file)
    this.k = K_STEP
    this.burst(this.kernel.h.syscall)
  }

  get fsMetadata(): boolean {
    return this.kernel.fs !== null
  }

  metaOp(op: MetaOp, n: number): void {
    const fs = this.kernel.fs
    if (fs === null || fs.meta === null)
      throw new Error('metaOp needs a file system (check fsMetadata first)')
    this.begin(fs.meta, 0, 0, op === 'stat' ? READ : WRITE)
    this.metaKind = op
    this.metaN = n
    this.k = K_META
    this.burst(this.kernel.h.syscall)
  }

  fadviseDontNeed(file: SimFile, offset: number, bytes: number): void {
    this.begin(file, offset, bytes, WRITE)
    this.k = K_FADVISE
    this.burst(this.kernel.h.syscall)
  }

  adviseAccess(file: SimFile, advice: AccessAdvice): void {
    adviseAccess(raState(this, file), advice, this.kernel.raPages)
  }

  flushBlockDevice(): void {
    this.file = null
    this.k = K_FLUSHBUF
    this.burst(this.kernel.h.syscall)
  }

  openBlockDevice(): void {
    this.kernel.bdevOpeners++
    this.k = K_STEP
    this.burst(this.kernel.h.syscall)
  }

  closeBlockDevice(): void {
    if (--this.kernel.bdevOpeners > 0 || this.kernel.blockDeviceCache === null) {
      this.k = K_STEP
      this.burst(this.kernel.h.syscall)
      return
    }
    this.flushBlockDevice() // the last close: sync_blockdev, then the cache dropped
  }

  /**
   * A direct transfer's work per KiB in this process (host dioReadUsPerKiB, dioWriteUsPerKiB):
   * its buffer's pages pinned and the bios built over them before they go, released at completion
   * — all charged before, where it delays the transfer's arrival at the device behind a smaller
   * one issued beside it.
   */
  private dioWork(op: Op, bytes: number): SimTime {
    const perKiB = this.kernel.h.dioPerKiB[op]
    return perKiB > 0 ? Math.round((bytes / 1024) * perKiB) : 0
  }

  compute(ns: SimTime): void {
    this.k = K_STEP
    this.burst(ns)
  }

  charDevice(bytes: number, fill: boolean): void {
    this.k = K_STEP
    const h = this.kernel.h
    this.burst(h.syscall + (fill ? Math.round((bytes / 1024) * h.copyPerKiB) : 0))
  }

  sleep(ns: SimTime): void {
    this.k = K_STEP
    this.block()
    this.sleepTimer.set(this.now + Math.max(0, Math.round(ns)))
  }

  aioSubmit(file: SimFile, offset: number, bytes: number, op: Op, sync = true): void {
    this.begin(file, offset, bytes, op)
    this.opSync = sync
    this.k = K_AIO
    this.burst(this.kernel.h.syscall + this.kernel.h.submit + this.dioWork(op, bytes))
  }

  aioWait(min: number, max = Infinity): void {
    this.aioMin = Math.max(1, Math.min(min, this.aioInFlight))
    this.aioMax = Math.max(this.aioMin, max)
    this.k = K_AIO_WAIT
    if (this.aioDone >= this.aioMin) this.burst(this.kernel.h.syscall)
    else this.block() // io_getevents sleeps at once; its cost is charged when it returns (wake)
  }

  exit(): void {
    this.k = K_EXITED
    this.state = TASK_DONE
    this.exited = true
    this.finishedAt = this.now
    if (this.anon) this.kernel.anon.release(this.anon)
    this.kernel.cpu.release(this)
    this.kernel.taskExited(this)
    if (this.parent !== null) childExited(this.parent, this)
  }

  // --- anonymous memory: faults, and waits for swap ---

  touch(first: number, pages: number, write: boolean, cpuPerPage: SimTime): void {
    this.touchNext = first
    this.touchEnd = first + pages
    this.touchWrite = write
    this.touchCpu = cpuPerPage
    this.touchPending = 0
    this.k = K_TOUCH
    touchLoop(this)
  }

  // --- processes: fork, wait; a parent's results include its children's, as `time make` does ---

  spawn(name: string, program: Program): void {
    this.pendingChild = { name, program }
    this.k = K_SPAWN
    this.burst(this.kernel.h.fork)
  }

  waitChild(): void {
    this.k = K_STEP
    if (this.zombies > 0 || this.liveChildren === 0) {
      if (this.zombies > 0) this.zombies--
      this.burst(this.kernel.h.syscall)
      return
    }
    this.k = K_WAIT_CHILD
    this.block()
  }

  // --- the state machine (continue-task.ts) ---

  cpuDone(): void {
    continueTask(this)
  }

  private directRange(): void {
    this.dirNext = Math.floor(this.off / 512)
    this.dirEnd = Math.ceil(Math.min(this.off + this.len, this.file!.size) / 512)
  }

  private begin(file: SimFile, offset: number, bytes: number, op: Op): void {
    this.opSync = true
    this.opCounted = true
    this.dioState = DIO_UNCHECKED
    this.file = file
    this.off = offset
    this.len = bytes
    this.op = op
    this.opStart = this.now
  }

  opDone(): void {
    if (this.opCounted) {
      this.recordLatency(this.now - this.opStart)
      this.ops++
      if (this.op === READ) this.bytesRead += this.len
      else this.bytesWritten += this.len
    }
    this.k = K_STEP
    this.program.step(this)
  }

  /** A call that is not an I/O operation of the process returns: the program goes on. */
  syscallDone(): void {
    this.k = K_STEP
    this.program.step(this)
  }

  // --- submitting bios (submit-path.ts) ---

  slotGranted(): void {
    this.wake(K_SUBMIT)
  }

  // --- its own bios done: direct I/O, synchronous and asynchronous ---

  /** A bio of this task's direct I/O is done: its aio slot, or the synchronous transfer. */
  bioDone(bio: Bio): void {
    const slot = bio.ref as AioSlot | null
    if (slot !== null) {
      if (--slot.remaining === 0) aioComplete(this, slot)
      return
    }
    if (--this.outstanding === 0 && this.isBlockedOn(K_DIRECT_WAIT)) this.wake(K_DIRECT_NEXT)
  }

  /** Woken by the kernel's wait queues with the continuation to run. */
  resume(k: number): void {
    this.wake(k)
  }
}
