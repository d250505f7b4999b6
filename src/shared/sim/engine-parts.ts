// The engine's rare work, apart from engine.ts (the file's size; each is out of the hot path).
import type { SimTime } from './time'

/** The error for an event scheduled before `now` (out of `at`, whose every caller inlines it). */
export function pastEvent(at: SimTime, now: SimTime): Error {
  return new Error(`event scheduled in the past: ${at} < ${now}`)
}

/**
 * Sort the engine's first `n` entries (slot, time, seq: Engine's heap arrays) by (time, seq) in
 * place: an insertion sort, for the few entries of a heap that becomes a sorted run again.
 */
export function sortEntries(ids: Int32Array, times: Float64Array, seqs: Float64Array, n: number): void {
  for (let k = 1; k < n; k++) {
    const id = ids[k]
    const time = times[k]
    const seq = seqs[k]
    let i = k
    while (i > 0) {
      const t = times[i - 1]
      if (t < time || (t === time && seqs[i - 1] < seq)) break
      ids[i] = ids[i - 1]
      times[i] = t
      seqs[i] = seqs[i - 1]
      i--
    }
    ids[i] = id
    times[i] = time
    seqs[i] = seq
  }
}
