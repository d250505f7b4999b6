// One time axis for all runs, or one per run: on a shared axis a 308 s run squeezes seven 30 s
// runs into the first tenth of the chart. Runs whose lengths differ by more than SQUASH_RATIO get
// a time axis each (the throughput chart in per cent of each run, the sector pictures each on its
// own seconds), unless the user picks.

/** What the user picked: the automatic choice, one axis for all, or one for each run. */
export type TimeMode = 'auto' | 'shared' | 'each'

/** Runs more than this many times longer than the shortest would squash it on a shared axis. */
export const SQUASH_RATIO = 3

/** Shared or each-its-own, for what the user picked and the runs' lengths in seconds. */
export function timeAxes(mode: TimeMode, seconds: readonly number[]): 'shared' | 'each' {
  if (mode !== 'auto') return mode
  const s = seconds.filter((x) => x > 0 && Number.isFinite(x))
  return s.length > 1 && Math.max(...s) > SQUASH_RATIO * Math.min(...s) ? 'each' : 'shared'
}
