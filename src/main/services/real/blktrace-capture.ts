import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { isSummaryLine, parseBlkparseLine } from '../../../shared/formats/blkparse-line'
import type { TraceStages } from '../../../shared/experiment/trace-stages'
import type { CancelState } from './engine-plan'
import type { EngineProcess } from './engine-process'
import { startEngine } from './engine-process'
import { findExecutable } from './exec'
import type { Journal } from './journal'

/** The message written into the trace (debugfs block/DEV/msg) when the run's sampling starts: t = 0. */
export const TRACE_START_MARK = 'iosched-lab start'

const DEBUGFS = '/sys/kernel/debug'

/** Binary trace kept at most (blktrace writes about 50 bytes an event): then tracing stops, and says so. */
export const MAX_TRACE_BYTES = 256 << 20

/**
 * Why a real run cannot be traced here, or null: blktrace and blkparse installed (Debian's and
 * Fedora's package `blktrace`), debugfs mounted (blktrace reads the kernel's relay files there).
 */
export function blktraceUnavailable(): string | null {
  const lacking = ['blktrace', 'blkparse'].filter((t) => findExecutable(t) === null)
  if (lacking.length > 0)
    return (
      `blktrace not installed (${lacking.join(' and ')} not found): install blktrace (apt-get install blktrace / ` +
      'dnf install blktrace) for per-process request stages; the figures are /proc/diskstats’s'
    )
  if (!existsSync(join(DEBUGFS, 'block')))
    return (
      `debugfs is not mounted at ${DEBUGFS}, which blktrace needs (mount -t debugfs none ${DEBUGFS}); ` +
      'the figures are /proc/diskstats’s'
    )
  return null
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/**
 * blktrace on one device for one real run: started before the run's sampling, its t = 0 marked in
 * the trace, stopped (SIGINT: it flushes its buffers) when the engine is done, then read with
 * blkparse into a TraceStages. Both tools run under the engines' watchdog (engine-process.ts, in the
 * journal): no trace outlives the lab, a cancel stops them, and the binary trace — in a directory
 * of its own under the run's work directory, bounded by `maxBytes` — is removed by `dispose`.
 */
export class BlktraceCapture {
  private readonly notes: string[] = []
  private stopped: Promise<void> | null = null
  private parser: EngineProcess | null = null
  private readonly hook = (): Promise<void> => this.kill()
  private watch: NodeJS.Timeout | null = null
  private startedAt = 0
  private full = false

  private constructor(
    readonly device: string,
    readonly dir: string,
    private readonly proc: EngineProcess,
    private readonly o: { journal?: Journal; cancel?: CancelState; maxBytes: number },
  ) {}

  /** Start tracing /dev/`device` into a new directory under `workDir`; throws saying why it cannot. */
  static async start(
    device: string,
    workDir: string,
    o: { journal?: Journal; cancel?: CancelState; maxBytes?: number; readyMs?: number } = {},
  ): Promise<BlktraceCapture> {
    const dir = mkdtempSync(join(workDir, 'blktrace-'))
    const blktrace = findExecutable('blktrace') ?? 'blktrace'
    // bigger relay buffers than the default 4 × 512 KiB, so a fast device's bursts are not dropped
    const proc = startEngine(
      blktrace,
      ['-d', `/dev/${device}`, '-D', dir, '-o', 'trace', '-b', '1024', '-n', '8'],
      { journal: o.journal },
    )
    const c = new BlktraceCapture(device, dir, proc, {
      journal: o.journal,
      cancel: o.cancel,
      maxBytes: o.maxBytes ?? MAX_TRACE_BYTES,
    })
    o.cancel?.hooks.add(c.hook)
    let exited = false
    void proc.done.then(
      () => (exited = true),
      () => (exited = true),
    )
    // ready: its per-CPU files are open (it starts the kernel's trace right after) and the
    // device's debugfs directory takes messages
    const until = Date.now() + (o.readyMs ?? 5000)
    while (!exited && !(c.files().length > 0 && existsSync(c.msgFile()))) {
      if (Date.now() > until) {
        await c.dispose()
        throw new Error(`blktrace did not start tracing /dev/${device} within ${o.readyMs ?? 5000} ms`)
      }
      await sleep(20)
    }
    if (exited) {
      const exit = await proc.done.catch((e: Error) => ({ stderr: e.message, stdout: '' }))
      await c.dispose()
      const why = `${exit.stderr} ${exit.stdout}`.trim().split('\n').slice(-3).join('; ')
      throw new Error(`blktrace stopped at once${why ? `: ${why}` : ''}`)
    }
    // the kernel's trace starts once every CPU's reader is up: a moment after the files appear
    await sleep(200)
    c.watch = setInterval(() => c.checkSize(), 500)
    return c
  }

  private files(): string[] {
    try {
      return readdirSync(this.dir).filter((f) => f.startsWith('trace.blktrace.'))
    } catch {
      return []
    }
  }

  private msgFile(): string {
    return join(DEBUGFS, 'block', this.device, 'msg')
  }

  /** Tracing stopped before the run ended (the trace reached `maxBytes`). */
  get stoppedEarly(): boolean {
    return this.full
  }

  /** Mark the run's t = 0 in the trace; false (and a note) when the kernel would not take it. */
  markStart(): boolean {
    this.startedAt = performance.now()
    try {
      writeFileSync(this.msgFile(), TRACE_START_MARK)
      return true
    } catch (e) {
      this.notes.push(`could not mark the run's start in the trace (${(e as Error).message})`)
      return false
    }
  }

  private bytes(): number {
    let n = 0
    for (const f of this.files()) {
      try {
        n += statSync(join(this.dir, f)).size
      } catch {
        // gone meanwhile
      }
    }
    return n
  }

  private checkSize(): void {
    if (this.stopped || this.bytes() < this.o.maxBytes) return
    this.full = true
    const s = this.startedAt > 0 ? ((performance.now() - this.startedAt) / 1000).toFixed(1) : '?'
    this.notes.push(
      `the trace reached ${Math.round(this.o.maxBytes / 2 ** 20)} MiB ${s} s into the run and tracing stopped there: ` +
        'stages, dispatches and per-process throughput cover the run up to then',
    )
    void this.stop()
  }

  /** Stop tracing (SIGINT: blktrace writes out what it holds); notes what it dropped. */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      if (this.watch) clearInterval(this.watch)
      this.watch = null
      const exit = await this.proc.stop('SIGINT').catch(() => null)
      const dropped = /dropped (\d+)/.exec(exit?.stdout ?? '')
      if (dropped && Number(dropped[1]) > 0)
        this.notes.push(
          `blktrace dropped ${dropped[1]} events (its buffers overflowed): some requests lack events and are matched as the trace allows`,
        )
    })()
    return this.stopped
  }

  /**
   * Read the trace with blkparse into `into` (line by line, as blkparse prints it); stops early
   * when `into` has cut the trace. Returns the notes on what the trace lacks.
   */
  async parse(into: TraceStages): Promise<string[]> {
    await this.stop()
    if (this.o.cancel?.cancelled) return this.notes
    const blkparse = findExecutable('blkparse') ?? 'blkparse'
    let line = 0
    let ended = false
    let problem: string | null = null
    const p = startEngine(blkparse, ['-q', '-i', 'trace', '-D', this.dir], {
      journal: this.o.journal,
      onLine: (l) => {
        line++
        if (ended) return
        if (isSummaryLine(l)) {
          ended = true
          return
        }
        try {
          const e = parseBlkparseLine(l, line)
          if (e) into.add(e)
        } catch (err) {
          problem = `blkparse printed a line the lab cannot read (${(err as Error).message}): the trace is read up to there`
          ended = true
        }
        if (ended || into.cut) {
          ended = true
          void p.cancel()
        }
      },
    })
    this.parser = p
    const exit = await p.done
    this.parser = null
    if (problem) this.notes.push(problem)
    else if (!exit.cancelled && exit.code !== 0)
      this.notes.push(
        `blkparse ${exit.signal ? `was killed by ${exit.signal}` : `exited with status ${exit.code}`}: ${exit.stderr.trim().split('\n').slice(-2).join('; ')}`,
      )
    return this.notes
  }

  private async kill(): Promise<void> {
    if (this.watch) clearInterval(this.watch)
    this.watch = null
    await Promise.all([this.proc.cancel(), this.parser?.cancel()])
  }

  /** Stop whatever still runs (error, cancel) and remove the binary trace. */
  async dispose(): Promise<void> {
    this.o.cancel?.hooks.delete(this.hook)
    await this.kill()
    rmSync(this.dir, { recursive: true, force: true })
  }
}
