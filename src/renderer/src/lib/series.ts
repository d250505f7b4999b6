// Chart-ready series of a run, computed once per run object (results are never edited), so a chart
// that redraws because another scheduler's result arrived does not redo this one's work.
import type { RunResult } from '../../../shared/experiment/result'
import { binPoints } from '../../../shared/metrics/bin-points'

type Point = { x: number; y: number }

/** Points per sector-over-time chart at most: enough to see the pattern, few enough to draw fast. */
export const SECTOR_POINTS = 3000

const throughput = new WeakMap<RunResult, { read: Point[]; write: Point[] }>()
const sectors = new WeakMap<RunResult, { reads: Point[]; writes: Point[]; maxGiB: number }>()

/** Read and write MB/s over time (x in seconds), to where the last bin ends. */
export function throughputSeries(r: RunResult): { read: Point[]; write: Point[] } {
  let s = throughput.get(r)
  if (!s) {
    const ts = r.timeSeries
    s = {
      read: binPoints(ts, ts.readMBps, r.seconds).map(([x, y]) => ({ x, y })),
      write: binPoints(ts, ts.writeMBps, r.seconds).map(([x, y]) => ({ x, y })),
    }
    throughput.set(r, s)
  }
  return s
}

const share = new WeakMap<RunResult, { read: Point[]; write: Point[] }>()

/** Read and write MB/s over the run's length in per cent (x from 0 to 100), to set runs side by side. */
export function throughputShare(r: RunResult): { read: Point[]; write: Point[] } {
  let s = share.get(r)
  if (!s) {
    const k = r.seconds > 0 ? 100 / r.seconds : 0
    const { read, write } = throughputSeries(r)
    s = {
      read: read.map((p) => ({ x: p.x * k, y: p.y })),
      write: write.map((p) => ({ x: p.x * k, y: p.y })),
    }
    share.set(r, s)
  }
  return s
}

const perProcess = new WeakMap<RunResult, Map<string, Point[] | null>>()

/**
 * A process's device MB/s (read plus write) over time, x in seconds or, with `share`, in per cent
 * of the run; null when the run has no such series (real runs, older results).
 */
export function processThroughput(r: RunResult, name: string, share = false): Point[] | null {
  let m = perProcess.get(r)
  if (!m) perProcess.set(r, (m = new Map()))
  const key = `${share ? '%' : 's'}:${name}`
  let s = m.get(key)
  if (s === undefined) {
    const p = r.processSeries?.find((x) => x.name === name)
    const k = share ? (r.seconds > 0 ? 100 / r.seconds : 0) : 1 / 1000
    s = p
      ? r.timeSeries.tMs.map((t, i) => ({ x: t * (share ? k / 1000 : k), y: p.readMBps[i] + p.writeMBps[i] }))
      : null
    m.set(key, s)
  }
  return s
}

/** Every k-th point, so that at most `n` remain. */
const thin = (ps: Point[], n: number): Point[] => {
  if (ps.length <= n) return ps
  const step = Math.ceil(ps.length / Math.max(1, n))
  return ps.filter((_, i) => i % step === 0)
}

/**
 * Dispatches as (seconds, GiB) points, at most `max` of them, split by direction and thinned per
 * direction: every k-th of all dispatches would keep no read at all when they come at a period
 * that k divides (noop's one read per 65 writes, every 5th kept). A direction with fewer than its
 * half of `max` keeps every point; the other takes the rest.
 */
export function sectorPoints(r: RunResult, max: number): { reads: Point[]; writes: Point[]; maxGiB: number } {
  let s = sectors.get(r)
  if (!s) {
    const d = r.dispatches
    const all: [Point[], Point[]] = [[], []]
    let maxGiB = 0
    for (let k = 0; k < d.tMs.length; k++) {
      const y = (d.sector[k] * 512) / 2 ** 30
      if (y > maxGiB) maxGiB = y
      all[d.op[k] === 0 ? 0 : 1].push({ x: d.tMs[k] / 1000, y })
    }
    const [r0, w0] = all
    const keepReads = Math.min(r0.length, Math.max(Math.floor(max / 2), max - w0.length))
    s = { reads: thin(r0, keepReads), writes: thin(w0, max - keepReads), maxGiB }
    sectors.set(r, s)
  }
  return s
}
