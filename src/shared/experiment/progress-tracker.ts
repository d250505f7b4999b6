/** What the tracker reads of a process: whether it finished, and its program's own progress. */
export interface ProgressSource {
  readonly finishedAt: number
  readonly program: { progress(): number }
}

/** Processes whose progress one report reads afresh, at most. */
export const PROGRESS_WINDOW = 64

/**
 * A run's progress for its progress hook: the mean of the watched processes' progress (a finished
 * one counts 1), or the share of the time limit gone by if that is more, or if a program cannot
 * tell (NaN, an open-ended one). Asked every slice of events; reading every process each time cost
 * a slice O(n) cold reads (jobs-1024: ~1 % of the run, 4 % at 4 096 jobs). So each report reads
 * afresh only the next PROGRESS_WINDOW processes, round robin, and keeps the others' last values
 * with their sum: up to PROGRESS_WINDOW processes it reads them all, as before; beyond, a value is
 * at most ⌈n / PROGRESS_WINDOW⌉ + 1 reports old, so the mean may lag a little behind (a process's
 * progress only grows). After each round every process is read at once and the sum made anew, so
 * rounding does not pile up: a report reads about 2·PROGRESS_WINDOW processes on average.
 */
export class ProgressTracker {
  private readonly values: Float64Array
  private sum = 0
  private nans = 0
  private next = 0
  private fresh = false

  constructor(private readonly watched: readonly ProgressSource[]) {
    this.values = new Float64Array(watched.length)
  }

  /** The fraction done (0…1) at `now` of a run limited to `limit`. */
  fraction(now: number, limit: number): number {
    const byTime = Math.min(1, now / limit)
    const n = this.watched.length
    if (n === 0) return byTime
    if (!this.fresh || n <= PROGRESS_WINDOW) this.readAll()
    else this.readWindow()
    if (this.nans > 0) return byTime
    return Math.max(byTime, this.sum / n)
  }

  private readAll(): void {
    let sum = 0
    let nans = 0
    for (let i = 0; i < this.watched.length; i++) {
      const p = this.read(i)
      if (Number.isNaN(p)) nans++
      else sum += p
    }
    this.sum = sum
    this.nans = nans
    this.next = 0
    this.fresh = true
  }

  private readWindow(): void {
    const n = this.watched.length
    for (let k = 0; k < PROGRESS_WINDOW; k++) {
      const i = this.next
      const old = this.values[i]
      const p = this.read(i)
      if (Number.isNaN(old)) this.nans--
      else this.sum -= old
      if (Number.isNaN(p)) this.nans++
      else this.sum += p
      if (++this.next === n) {
        this.fresh = false // the next report sums every process anew
        return
      }
    }
  }

  private read(i: number): number {
    const t = this.watched[i]
    const p = t.finishedAt >= 0 ? 1 : t.program.progress()
    this.values[i] = p
    return p
  }
}
