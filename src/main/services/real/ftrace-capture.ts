import { existsSync, mkdirSync, readdirSync, rmdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { TraceStages } from '../../../shared/experiment/trace-stages'
import { parseFtraceBlockLine } from '../../../shared/formats/ftrace-block-line'
import type { CancelState } from './engine-plan'
import type { EngineProcess } from './engine-process'
import { startEngine } from './engine-process'
import type { Journal } from './journal'
import { readSys, sysBlockDir } from './sysfs'
import { memAvailableBytes } from './host-capture'
import { cpus } from 'node:os'

const TRACEFS = '/sys/kernel/tracing'

/** The block tracepoints that are blktrace's Q G M F X I D R C (ftrace-block-line.ts). */
const EVENTS = [
  'block_bio_queue',
  'block_getrq',
  'block_bio_backmerge',
  'block_bio_frontmerge',
  'block_split',
  'block_rq_insert',
  'block_rq_issue',
  'block_rq_requeue',
  'block_rq_complete',
]

/** Prefix of the lab's tracefs instances (`doctor` may find one a crashed lab left). */
export const INSTANCE_PREFIX = 'iosched-lab-'

/**
 * Per-CPU buffer, KiB: 256 MiB (about 2.4 million events), less when memory is short (a
 * sixteenth of what is available, over the CPUs). The reader lags behind the CPUs the workload
 * keeps busy, the more so on a loaded machine, and what the buffer cannot hold is lost: with
 * 64 MiB, a traced reader beside a direct writer lost 7.7 % of 1.39 M events while the test suite
 * ran beside it on 2 vCPUs (and so had no stages), where alone it read all of its 206 000. The
 * reading catches up after the run (`finish` drains the buffer), so a larger buffer costs memory,
 * not time.
 */
function bufferKiB(): number {
  const avail = memAvailableBytes() ?? 0
  return Math.max(4096, Math.min(262144, Math.floor(avail / 1024 / 16 / Math.max(1, cpus().length))))
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/**
 * The events blktrace records, through the kernel's block tracepoints when blktrace cannot run
 * (a kernel in lockdown refuses its relay files in debugfs; tracefs still works): a tracefs
 * instance of the lab's own (its own buffer and event switches, so other users of ftrace are not
 * disturbed) with the block events on, filtered to the device, read from `trace_pipe` while the
 * run goes on (by `cat` under the engines' watchdog) straight into a TraceStages. The instance is
 * removed at the end, also on error and cancel.
 */
export class FtraceCapture {
  private readonly notes: string[] = []
  private reader: EngineProcess | null = null
  private readonly hook = (): Promise<void> => this.dispose()
  private endSeen = false
  private disposing: Promise<void> | null = null
  private line = 0
  private problem: string | null = null
  /** Events the buffer lost (known once `finish` has run). */
  lost = 0
  /** Lines read from the trace. */
  get read(): number {
    return this.line
  }

  private constructor(
    readonly dir: string,
    private readonly into: TraceStages,
    private readonly o: { journal?: Journal; cancel?: CancelState },
  ) {}

  /** Why the kernel's block tracepoints cannot be read here, or null. */
  static unavailable(): string | null {
    if (!existsSync(join(TRACEFS, 'instances'))) return `tracefs is not mounted at ${TRACEFS}`
    if (!existsSync(join(TRACEFS, 'events/block/block_rq_issue')))
      return 'the kernel has no block tracepoints'
    return null
  }

  /** Start reading /dev/`device`'s block events into `into`; throws saying why it cannot. */
  static async start(
    device: string,
    into: TraceStages,
    o: { journal?: Journal; cancel?: CancelState } = {},
  ): Promise<FtraceCapture> {
    const dev = deviceNumber(device).devT
    const dir = join(TRACEFS, 'instances', `${INSTANCE_PREFIX}${process.pid}-${device}`)
    mkdirSync(dir)
    const c = new FtraceCapture(dir, into, o)
    o.cancel?.hooks.add(c.hook)
    try {
      writeFileSync(join(dir, 'tracing_on'), '0')
      writeFileSync(join(dir, 'buffer_size_kb'), String(bufferKiB()))
      // one clock for every CPU, the one blktrace stamps with (ktime_get: kernel/trace/blktrace.c):
      // the instance's default, `local`, "may not be in sync across CPUs"
      // (Documentation/trace/ftrace.rst), and a request's events come from several CPUs
      if (offersClock(dir, 'mono')) writeFileSync(join(dir, 'trace_clock'), 'mono')
      for (const e of EVENTS) {
        const ev = join(dir, 'events/block', e)
        if (!existsSync(ev)) continue
        writeFileSync(join(ev, 'filter'), `dev == ${dev}`)
        writeFileSync(join(ev, 'enable'), '1')
      }
      c.reader = startEngine('cat', [join(dir, 'trace_pipe')], {
        journal: o.journal,
        onLine: (l) => c.take(l),
      })
      writeFileSync(join(dir, 'tracing_on'), '1')
      // `cat` has trace_pipe open before the run's first event matters
      await sleep(100)
    } catch (e) {
      await c.dispose()
      throw e
    }
    return c
  }

  private take(l: string): void {
    if (this.endSeen || this.problem) return
    this.line++
    try {
      const e = parseFtraceBlockLine(l, this.line)
      if (!e) return
      if (e.action === 'm' && e.message === END_MARK) {
        this.endSeen = true
        return
      }
      this.into.add(e)
    } catch (err) {
      this.problem = `a traced line the lab cannot read (${(err as Error).message}): the trace is read up to there`
    }
  }

  /** Mark the run's t = 0 in the trace (its `anchor`). */
  mark(text: string): void {
    try {
      writeFileSync(join(this.dir, 'trace_marker'), text)
    } catch (e) {
      this.notes.push(`could not mark the run's start in the trace (${(e as Error).message})`)
    }
  }

  get stoppedEarly(): boolean {
    return this.into.cut
  }

  /** Stop tracing and read what is left (up to an end mark); the notes on what the trace lacks. */
  async finish(): Promise<string[]> {
    this.mark(END_MARK)
    try {
      writeFileSync(join(this.dir, 'tracing_on'), '0')
    } catch {
      // the reader still drains what was traced
    }
    // the reader drains what the buffer holds: wait while lines keep coming, up to the end mark
    let seen = this.line
    let quiet = 0
    while (!this.endSeen && !this.problem && !this.into.cut && quiet < 2000) {
      await sleep(20)
      quiet = this.line === seen ? quiet + 20 : 0
      seen = this.line
    }
    if (!this.endSeen && !this.problem && !this.into.cut)
      this.notes.push('the trace’s end mark did not arrive: its last events may be missing')
    const lost = overruns(this.dir)
    this.lost = lost
    if (lost > 0)
      this.notes.push(`the trace buffer overflowed (${lost} events lost): some requests lack events`)
    if (this.problem) this.notes.push(this.problem)
    this.notes.push(
      'traced through the kernel’s block tracepoints (a tracefs instance): blktrace could not read the trace here',
    )
    await this.dispose()
    return this.notes
  }

  /**
   * Stop the reader and remove the instance (its events and buffer go with it). Every caller — the
   * run's end, a cancel's hook, an error — waits for the same removal: a second caller must not
   * return while the first is still waiting for trace_pipe to close.
   */
  dispose(): Promise<void> {
    this.disposing ??= this.removeInstance()
    return this.disposing
  }

  private async removeInstance(): Promise<void> {
    this.o.cancel?.hooks.delete(this.hook)
    try {
      writeFileSync(join(this.dir, 'tracing_on'), '0')
    } catch {
      // gone already
    }
    await this.reader?.cancel()
    // rmdir fails with EBUSY while trace_pipe is still open; on a loaded machine the reader's
    // release can take a while after it has exited
    let last: unknown = null
    for (let k = 0; k < 100; k++) {
      try {
        rmdirSync(this.dir)
        return
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return
        last = e
        await sleep(50)
      }
    }
    throw new Error(`could not remove the tracefs instance ${this.dir}: ${(last as Error).message}`)
  }
}

const END_MARK = 'iosched-lab end'

/**
 * Remove the tracefs instances of lab processes that are gone (killed before they could: SIGKILL,
 * a crash): their events stay on and their buffers held until then. Returns what was removed.
 */
export function removeStrayInstances(): string[] {
  const root = join(TRACEFS, 'instances')
  let names: string[] = []
  try {
    names = readdirSync(root).filter((n) => n.startsWith(INSTANCE_PREFIX))
  } catch {
    return []
  }
  const out: string[] = []
  for (const n of names) {
    const pid = Number(/^iosched-lab-(\d+)-/.exec(n)?.[1] ?? 0)
    if (pid > 0 && alive(pid)) continue
    try {
      rmdirSync(join(root, n))
      out.push(`removed the tracefs instance ${n} of a lab process that is gone`)
    } catch (e) {
      out.push(`could not remove the tracefs instance ${n}: ${(e as Error).message}`)
    }
  }
  return out
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Beyond this share of a trace's events lost, its per-request stages are not given. */
export const STAGES_LOSS_LIMIT = 0.01

/**
 * Why a trace that lost `lost` of its events (having delivered `read`) cannot give per-request
 * stages, or null when it can. Requests are told apart by their sectors: one whose completion was
 * lost would take the completion of a later request at the same place — a looping writer's next
 * pass — and its stages would be that much longer (seen: a reader's D2C mean 422 ms, where its
 * p99 was 17 ms). A buffered writer's writeback comes as a bio per page, two events each: at
 * 2 GB/s, a million events a second, more than the reader of the trace keeps up with.
 */
export function stagesLossProblem(lost: number, read: number): string | null {
  if (!(lost > STAGES_LOSS_LIMIT * (lost + read))) return null
  const share = (100 * lost) / (lost + read)
  return `the request stages are left out: the trace lost ${share.toFixed(share < 10 ? 1 : 0)} % of its events (${lost} of ${lost + read}), and a request whose completion was lost would be paired with a later request's at the same sector`
}

/**
 * A block device's number from sysfs: as the block events print it ("7,0"), and as the kernel's
 * dev_t their filters compare (MKDEV: major << 20 | minor). Throws when sysfs does not say.
 */
export function deviceNumber(device: string): { printed: string; devT: number } {
  const mm = /^(\d+):(\d+)$/.exec((readSys(join(sysBlockDir(device), 'dev')) ?? '').trim())
  if (!mm) throw new Error(`cannot read the device number of ${device}`)
  return { printed: `${mm[1]},${mm[2]}`, devT: Number(mm[1]) * 2 ** 20 + Number(mm[2]) }
}

/** The instance offers the trace clock `name` (trace_clock lists them, the one in use in brackets). */
export function offersClock(dir: string, name: string): boolean {
  const listed = (readSys(join(dir, 'trace_clock')) ?? '').split(/\s+/)
  return listed.some((c) => c.replace(/^\[|\]$/g, '') === name)
}

/** Events the instance's per-CPU buffers lost (tracefs per_cpu/cpuN/stats, "overrun"). */
function overruns(dir: string): number {
  let n = 0
  let cpus: string[] = []
  try {
    cpus = readdirSync(join(dir, 'per_cpu'))
  } catch {
    return 0
  }
  for (const c of cpus)
    n += Number(/overrun: (\d+)/.exec(readSys(join(dir, 'per_cpu', c, 'stats')) ?? '')?.[1] ?? 0)
  return n
}
