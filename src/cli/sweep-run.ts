// Running a sweep's shard: its units, every point's at once, in the lab's run pool (as `run`
// does: one child per core, or `--jobs N`), or one after another in this process (`--jobs 0`);
// the runs and failures as the shard's part, in unit order.
import { jobsOf } from '../main/services/experiments'
import { RunPool } from '../main/services/run-pool'
import type { RunJob } from '../main/services/run-pool'
import { SWEEP_PART_SCHEMA, sweepUnits, unitsOfShard } from '../shared/api/sweep-shards'
import type { Shard, SweepDefinition, SweepPart, SweepUnit } from '../shared/api/sweep-shards'
import type { ResolvedSpec } from '../shared/experiment/resolved'
import type { RunResult } from '../shared/experiment/result'
import { simulate } from '../shared/experiment/runner'

export interface SweepRunEvents {
  /** A unit's progress: the fraction of its run done. */
  progress?(unit: number, fraction: number): void
  /** A unit finished or failed. */
  settled?(unit: number, ok: boolean): void
}

export interface SweepRunOptions {
  /** Simulation processes at once (default: cores); 0 runs in this process. */
  jobs?: number
  signal?: AbortSignal
}

/** The units of `shard` of the sweep whose points are `specs`. */
export const shardUnits = (specs: readonly ResolvedSpec[], shard: Shard): SweepUnit[] =>
  unitsOfShard(sweepUnits(specs.map(jobsOf)), shard)

/** Run the shard's units; the part (without its header fields: the caller adds app and hash). */
export async function runShard(
  def: SweepDefinition,
  specs: readonly ResolvedSpec[],
  shard: Shard,
  ev: SweepRunEvents = {},
  opts: SweepRunOptions = {},
): Promise<Pick<SweepPart, 'shard' | 'runs' | 'failures'>> {
  const units = shardUnits(specs, shard)
  const results: (RunResult | undefined)[] = new Array(units.length)
  const messages: string[] = new Array(units.length)
  const byPoint = new Map<number, number[]>()
  units.forEach((u, i) => byPoint.set(u.point, [...(byPoint.get(u.point) ?? []), i]))
  const job = (u: SweepUnit): RunJob => ({
    schedIndex: u.schedIndex,
    repetition: u.repetition,
    ...(def.why ? {} : { why: false }),
  })
  if (opts.jobs === 0) {
    units.forEach((u, i) => {
      if (opts.signal?.aborted) return
      try {
        results[i] = simulate(specs[u.point], u.schedIndex, u.repetition, {
          why: def.why,
          progress: (f) => ev.progress?.(i, f),
        })
      } catch (e) {
        messages[i] = (e as Error).message
      }
      ev.settled?.(i, results[i] !== undefined)
    })
  } else {
    const pool = new RunPool(opts.jobs)
    try {
      // every point's jobs at once: the pool runs `jobs` of them at a time, whatever their point
      await Promise.all(
        [...byPoint].map(async ([point, idx]) => {
          const done = await pool.runAll(
            specs[point],
            idx.map((i) => job(units[i])),
            {
              progress: (j, f) => ev.progress?.(idx[indexOf(idx, units, j)], f),
              done: (j) => ev.settled?.(idx[indexOf(idx, units, j)], true),
              failed: (j, m) => {
                const i = idx[indexOf(idx, units, j)]
                messages[i] = m
                ev.settled?.(i, false)
              },
            },
            opts.signal,
          )
          done.forEach((r, k) => (results[idx[k]] = r))
        }),
      )
    } finally {
      pool.dispose()
    }
  }
  const label = (u: SweepUnit): string => specs[u.point].schedulers[u.schedIndex].label
  return {
    shard,
    runs: units.flatMap((u, i) => (results[i] ? [{ ...u, result: results[i] }] : [])),
    failures: units.flatMap((u, i) =>
      results[i] ? [] : [{ ...u, label: label(u), message: messages[i] ?? 'not run (cancelled)' }],
    ),
  }
}

/** The position in `idx` of the unit a pool job stands for. */
function indexOf(idx: number[], units: SweepUnit[], j: RunJob): number {
  return idx.findIndex((i) => units[i].schedIndex === j.schedIndex && units[i].repetition === j.repetition)
}

/** The part's document. */
export function partDocument(
  def: SweepDefinition,
  app: string,
  definition: string,
  ran: Pick<SweepPart, 'shard' | 'runs' | 'failures'>,
): SweepPart {
  return {
    schema: SWEEP_PART_SCHEMA,
    app,
    definition,
    shard: ran.shard,
    spec: def.spec,
    sweep: def.sweep,
    why: def.why,
    runs: ran.runs,
    failures: ran.failures,
  }
}
