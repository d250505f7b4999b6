// Reproducing a gallery entry from the app (`iosched-lab reproduce NAME`): every variant simulated
// in the lab's own child processes, one simulation after another, then the claims judged. Which
// simulation is going and how far it is, the verdict and failures are reproduce events; cancelRun
// aborts it (its simulations are killed).
import { randomUUID } from 'node:crypto'
import type { ReproduceInput, ReproduceStarted } from '../../shared/api/gallery-contract'
import type { LabListener } from '../../shared/api/lab-events'
import type { SweepValue } from '../../shared/api/sweep'
import { validateSpec } from '../../shared/experiment/validate'
import { entryView, experimentsOf, figureRow } from '../../shared/gallery/report'
import type { ReproduceReport } from '../../shared/gallery/report'
import { GalleryError, loadGalleryEntry, reproduce } from './gallery-entries'
import type { LoadedEntry, ReproduceResult } from './gallery-entries'
import type { RunPool } from './run-pool'

export class Reproductions {
  private readonly active = new Map<string, AbortController>()

  constructor(
    private readonly pool: RunPool,
    private readonly emit: LabListener,
    private readonly begun: (runId: string) => void,
    private readonly galleryRoot?: string,
  ) {}

  start({ name }: ReproduceInput): ReproduceStarted | { problems: string[] } {
    let loaded: LoadedEntry
    try {
      loaded = loadGalleryEntry(name, this.galleryRoot)
    } catch (e) {
      if (e instanceof GalleryError) return { problems: [e.message] }
      throw e
    }
    const runId = randomUUID()
    const abort = new AbortController()
    this.active.set(runId, abort)
    this.begun(runId)
    const entry = entryView(loaded.entry, loaded.page)
    // the answer goes first; the events follow from the next turn on
    setImmediate(() => void this.execute(runId, loaded, experimentsOf(entry), abort.signal))
    return { runId, entry }
  }

  cancel(runId: string): boolean {
    const abort = this.active.get(runId)
    if (!abort) return false
    abort.abort()
    return true
  }

  /** Abort every reproduction (the lab is closing). */
  cancelAll(): void {
    for (const a of this.active.values()) a.abort()
  }

  get running(): number {
    return this.active.size
  }

  private async execute(runId: string, loaded: LoadedEntry, n: number, signal: AbortSignal): Promise<void> {
    const t0 = performance.now()
    let k = 0
    let variant = ''
    let value: SweepValue | null = null
    // each job's share done, of the simulation going now
    let jobs = new Map<string, number>()
    let jobCount = 1
    const failures: string[] = []
    const progress = (): void => {
      let done = 0
      for (const f of jobs.values()) done += f
      this.emit({
        type: 'reproduce:progress',
        runId,
        variant,
        value,
        k,
        n,
        fraction: Math.min(1, done / jobCount),
      })
    }
    try {
      const result = await reproduce(
        loaded,
        {
          variant: (id, v) => {
            k++
            variant = id
            value = v === undefined ? null : (v as SweepValue)
            jobs = new Map()
            jobCount = jobsOfVariant(loaded, id)
            progress()
          },
          progress: (label, rep, fraction) => {
            jobs.set(`${label}#${rep}`, fraction)
            progress()
          },
          failed: (label, rep, message) => {
            if (signal.aborted) return
            const where = value === null ? variant : `${variant} ${String(value)}`
            failures.push(`${where}: ${label} #${rep + 1} failed: ${message}`)
          },
        },
        { pool: this.pool, signal },
      )
      this.emit({
        type: 'reproduce:done',
        runId,
        report: reportOf(result, failures, (performance.now() - t0) / 1000),
      })
    } catch (e) {
      const cancelled = signal.aborted || (e as Error).name === 'CancelledError'
      this.emit({
        type: 'reproduce:failed',
        runId,
        cancelled,
        message: cancelled ? 'cancelled' : (e as Error).message,
      })
    } finally {
      this.active.delete(runId)
    }
  }
}

/** Jobs of one simulation of a variant: scheduler entries × repetitions (its first round). */
function jobsOfVariant(loaded: LoadedEntry, id: string): number {
  const check = validateSpec(loaded.entry.variants.find((v) => v.id === id)?.spec)
  return check.ok ? Math.max(1, check.spec.schedulers.length * check.spec.repetitions) : 1
}

/** The verdict the app shows: the figures in their reading units, the claims, the totals. */
export function reportOf(r: ReproduceResult, failures: string[], wallSeconds: number): ReproduceReport {
  const holding = r.claims.filter((c) => c.pass).length
  return {
    name: r.name,
    title: r.title,
    source: r.source,
    figures: r.published.map((p) => figureRow(p.ref, p.published, p.simulated, p.unit)),
    claims: r.claims,
    ...(r.explanation ? { explanation: r.explanation } : {}),
    holding,
    pass: r.pass,
    failures,
    wallSeconds,
  }
}
