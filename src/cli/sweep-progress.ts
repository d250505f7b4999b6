// A sweep's progress on stderr: runs done of all, failed, running, and the time left, estimated
// from the work done so far (finished runs plus the fractions of those going) at the pace so far.
// On a terminal one line redrawn in place; elsewhere (a batch job's log) a line at every tenth.

/** `1 h 02 min`, `3 min 12 s`, `45 s`. */
export function durationText(seconds: number): string {
  const s = Math.max(0, Math.round(seconds))
  if (s >= 3600)
    return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`
  if (s >= 60) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`
  return `${s} s`
}

/** Seconds left, at the pace so far; null until some work is done. */
export function etaSeconds(elapsedSeconds: number, workDone: number, workTotal: number): number | null {
  if (!(workDone > 0)) return null
  return (elapsedSeconds * Math.max(0, workTotal - workDone)) / workDone
}

export class SweepProgress {
  private readonly fractions = new Map<number, number>()
  private settled = 0
  private failed = 0
  private timer: NodeJS.Timeout | null = null
  private logged = 0
  private drawn = false

  constructor(
    private readonly total: number,
    private readonly what: string,
    private readonly out: NodeJS.WriteStream = process.stderr,
    private readonly started = Date.now(),
  ) {}

  progress(unit: number, fraction: number): void {
    this.fractions.set(unit, Math.max(0, Math.min(1, fraction)))
    this.tick()
  }

  done(unit: number, ok: boolean): void {
    this.fractions.delete(unit)
    this.settled++
    if (!ok) this.failed++
    this.tick()
    // a log gets a line at every tenth of the runs
    if (!this.out.isTTY && this.total >= 10) {
      const tenth = Math.floor((10 * this.settled) / this.total)
      if (tenth > this.logged) {
        this.logged = tenth
        this.out.write(`${this.line()}\n`)
      }
    }
  }

  /** The line as shown: `sweep shard 2/4: 37 of 240 runs (15 %), 4 running, 1 failed · 3 min 12 s left`. */
  line(now = Date.now()): string {
    const work = this.settled + [...this.fractions.values()].reduce((a, f) => a + f, 0)
    const eta = etaSeconds((now - this.started) / 1000, work, this.total)
    const pct = this.total > 0 ? Math.floor((100 * work) / this.total) : 100
    const parts = [`${this.what}: ${this.settled} of ${this.total} runs (${pct} %)`]
    if (this.fractions.size > 0) parts.push(`${this.fractions.size} running`)
    if (this.failed > 0) parts.push(`${this.failed} failed`)
    const left = this.settled < this.total && eta !== null ? ` · ${durationText(eta)} left` : ''
    return `${parts.join(', ')}${left}`
  }

  private tick(): void {
    if (!this.out.isTTY || this.timer !== null) return
    this.timer = setInterval(() => {
      this.out.write(`\r\x1b[2K${this.line()}`)
      this.drawn = true
    }, 250)
  }

  /** Stop drawing; the last line stays. */
  end(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    if (this.drawn) this.out.write(`\r\x1b[2K${this.line()}\n`)
  }
}
