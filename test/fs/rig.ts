// A host with a file system on a null_blk device, driven by scripted programs: what the block layer
// sees (who issued each request, where, sync or not) and what the journal did, step by step.
import { Engine } from '../../src/shared/sim/engine'
import { Rng } from '../../src/shared/sim/rng'
import { MS } from '../../src/shared/sim/time'
import { BlockQueue } from '../../src/shared/block/queue'
import { IOPRIO_NONE } from '../../src/shared/block/types'
import type { Op, Request } from '../../src/shared/block/types'
import { NullBlk, nullblkParams } from '../../src/shared/devices/nullblk'
import { noop } from '../../src/shared/schedulers/noop'
import { Kernel } from '../../src/shared/host/kernel'
import { hostParams } from '../../src/shared/host/params'
import type { SimFile } from '../../src/shared/host/files'
import type { Program, Sys } from '../../src/shared/host/program'
import type { Task } from '../../src/shared/host/task'
import { findFileSystem } from '../../src/shared/fs/registry'
import type { BlockFs } from '../../src/shared/fs/block-fs'
import type { CommitEvent } from '../../src/shared/fs/journal'
import { resolveParams } from '../../src/shared/util/params'
import type { ParamValues } from '../../src/shared/util/params'

export interface Io {
  t: number
  done: number
  who: string
  pid: number
  sector: number
  nsect: number
  op: Op
  sync: boolean
}

/** One system call of a scripted program (or a pause). */
export type Step = (sys: Sys, f: (name: string) => SimFile) => void

/** Runs its steps in order, then exits; `at[i]` is when step i returned (ns). */
export class Script implements Program {
  private i = 0
  readonly at: number[] = []
  constructor(
    private readonly steps: Step[],
    private readonly files: (n: string) => SimFile,
  ) {}
  step(sys: Sys): void {
    if (this.i > 0) this.at[this.i - 1] = sys.now
    if (this.i >= this.steps.length) return sys.exit()
    this.steps[this.i++](sys, this.files)
  }
  progress(): number {
    return this.i / this.steps.length
  }
}

export function fsRig(type: string, options: ParamValues = {}, host: ParamValues = {}) {
  const engine = new Engine()
  const queue = new BlockQueue(engine, { nrRequests: 128, layer: 'legacy', hz: 1000 }, new Rng(1))
  const dev = resolveParams(nullblkParams, { completionUs: 100, rotational: true }, 'device', [])
  queue.setDevice(new NullBlk(dev, { engine, sink: queue, rng: new Rng(2) }))
  queue.setScheduler(noop.create({}, queue))
  const ios: Io[] = []
  const open = new Map<Request, Io>()
  queue.observer = {
    dispatched: (rq: Request, now: number) => {
      const io = {
        t: now,
        done: -1,
        who: rq.ctx.name,
        pid: rq.ctx.pid,
        sector: rq.sector,
        nsect: rq.nsect,
        op: rq.op,
        sync: rq.sync,
      }
      ios.push(io)
      open.set(rq, io)
    },
    completed: (rq: Request, now: number) => {
      open.get(rq)!.done = now
      open.delete(rq)
    },
    levels: () => {},
  }
  const issues: { path: string; message: string }[] = []
  const hv = resolveParams(hostParams, { memoryMiB: 4096, reservedMiB: 512, ...host }, 'host', issues)
  const fsType = findFileSystem(type)!
  const fsValues = resolveParams(fsType.params, options, 'fs', issues)
  if (issues.length) throw new Error(JSON.stringify(issues))
  const kernel = new Kernel(engine, queue, hv, new Rng(3), { type, values: fsValues })
  const fs = kernel.fs as BlockFs | null
  const log: CommitEvent[] = []
  if (fs?.journal) fs.journal.log = log
  const file = (name: string): SimFile => kernel.file(name)!
  const spawn = (name: string, steps: Step[], startMs = 0): { task: Task; script: Script } => {
    const script = new Script(steps, file)
    const task = kernel.spawn(name, script, { ioClass: IOPRIO_NONE, ioLevel: 4, nice: 0 })
    engine.at(startMs * MS, { onEvent: () => task.start() }, 0)
    return { task, script }
  }
  let started = false
  const run = (untilMs: number): void => {
    if (!started) {
      kernel.start()
      started = true
    }
    engine.run(untilMs * MS)
  }
  /** Requests that fall inside a file's extents. */
  const inFile = (f: SimFile, io: Io): boolean =>
    f.extents.some((e) => io.sector < e.devSector + e.nsect && io.sector + io.nsect > e.devSector)
  return { engine, queue, kernel, fs, ios, log, file, spawn, run, inFile }
}

export const write =
  (name: string, offset: number, bytes: number, direct = false): Step =>
  (sys, f) =>
    sys.write(f(name), offset, bytes, direct)
export const read =
  (name: string, offset: number, bytes: number): Step =>
  (sys, f) =>
    sys.read(f(name), offset, bytes, false)
export const fsync =
  (name: string, datasync = false): Step =>
  (sys, f) =>
    sys.fsync(f(name), datasync)
export const sleep =
  (ms: number): Step =>
  (sys) =>
    sys.sleep(ms * MS)
