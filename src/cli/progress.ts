/** `12.3 of 600 s simulated`: the simulated time reached, against the run's bound when known. */
export const simulatedText = (sim: number, bound: number | null): string =>
  bound === null ? `${sim.toFixed(1)} s simulated` : `${sim.toFixed(1)} of ${bound} s simulated`

/**
 * A progress bar on stderr, one line per run label, redrawn in place — only on a terminal and
 * only once a run has taken more than a moment.
 */
export class ProgressBar {
  private readonly state = new Map<string, { fraction: number; sim: number; bound: number | null }>()
  private readonly started = Date.now()
  private drawn = 0
  private timer: NodeJS.Timeout | null = null

  constructor(
    private readonly out: NodeJS.WriteStream = process.stderr,
    private readonly delayMs = 400,
  ) {}

  get enabled(): boolean {
    return Boolean(this.out.isTTY)
  }

  /** `boundSeconds`: the run's simulated-time bound (stop.maxSeconds), shown beside the time reached. */
  update(label: string, fraction: number, simSeconds: number, boundSeconds: number | null = null): void {
    this.state.set(label, { fraction, sim: simSeconds, bound: boundSeconds })
    if (!this.enabled) return
    if (this.timer === null) this.timer = setInterval(() => this.draw(), 100)
  }

  private draw(): void {
    if (Date.now() - this.started < this.delayMs) return
    const width = 30
    const lines = [...this.state].map(([label, s]) => {
      const n = Math.round(Math.max(0, Math.min(1, s.fraction)) * width)
      const pct = (s.fraction * 100).toFixed(0).padStart(3)
      return `${label.padEnd(24).slice(0, 24)} [${'#'.repeat(n)}${'.'.repeat(width - n)}] ${pct}%  ${simulatedText(s.sim, s.bound)}`
    })
    if (this.drawn > 0) this.out.write(`\x1b[${this.drawn}A`)
    for (const l of lines) this.out.write(`\x1b[2K${l}\n`)
    this.drawn = lines.length
  }

  done(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    if (this.drawn > 0) {
      this.out.write(`\x1b[${this.drawn}A`)
      for (let i = 0; i < this.drawn; i++) this.out.write('\x1b[2K\n')
      this.out.write(`\x1b[${this.drawn}A`)
    }
    this.drawn = 0
  }
}
