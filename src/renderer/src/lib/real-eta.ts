// The overall ETA of a run's real jobs (fio on a device, one after another): from each run's time
// limit and the runs left, refined by the measured pace once a run has finished.
import type { JobState } from '../stores/run'

export interface RealEta {
  done: number
  total: number
  /** Wall-clock seconds left for the real runs; null when no run's time limit is known. */
  seconds: number | null
}

/**
 * Seconds left for the real jobs: the running one's fio ETA (or, before fio says, the pace less
 * what it has run), and each waiting one at the pace — the mean wall time of the real runs done
 * so far, their start-up (dropping the page cache, switching, fio's set-up) included — or, before
 * any has finished, its time limit. Null when there are no real jobs.
 */
export function realEta(jobs: readonly JobState[], now: number): RealEta | null {
  const real = jobs.filter((j) => j.job.source === 'real')
  if (real.length === 0) return null
  const done = real.filter((j) => j.state === 'done')
  const timed = done.filter((j) => j.startedMs !== undefined && j.endedMs !== undefined)
  const pace =
    timed.length > 0 ? timed.reduce((a, j) => a + (j.endedMs! - j.startedMs!) / 1000, 0) / timed.length : null
  let left = 0
  for (const j of real) {
    if (j.state === 'done' || j.state === 'failed') continue
    const per = pace ?? j.job.maxSeconds ?? null
    if (j.state === 'running' && j.etaSeconds !== null && j.fraction > 0) {
      left += j.etaSeconds
      continue
    }
    if (per === null) return { done: done.length, total: real.length, seconds: null }
    const ran = j.state === 'running' && j.startedMs !== undefined ? (now - j.startedMs) / 1000 : 0
    left += Math.max(0, per - ran)
  }
  return { done: done.length, total: real.length, seconds: left }
}
