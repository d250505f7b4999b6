import type { Request } from '../../block/types'
import type { SectorIndex } from '../../block/sector-index'

/** The farthest the head goes backward for a request: 1 Mi sectors (512 MiB). */
export const MAXBACK = 1024 * 1024
/** A backward seek counts this many times a forward one of the same length. */
export const BACK_PENALTY = 2

/** Cost of moving the head from `last` to `s`: ahead as is, a short way back doubled; −1 = "wraps". */
function headCost(last: number, s: number): number {
  if (s >= last) return s - last
  if (s + MAXBACK >= last) return (last - s) * BACK_PENALTY
  return -1
}

/**
 * as_choose_req: of two requests of one direction, the one to serve next with the head at `last`,
 * ignoring deadlines. A one-way elevator, except that short backward seeks are allowed at twice the
 * cost; a request farther behind "wraps" and loses to any that does not.
 */
export function chooseRequest(last: number, r1: Request | null, r2: Request | null): Request | null {
  if (r1 === null || r1 === r2) return r2
  if (r2 === null) return r1
  const d1 = headCost(last, r1.sector)
  const d2 = headCost(last, r2.sector)
  if (d1 >= 0 && d2 < 0) return r1
  if (d2 >= 0 && d1 < 0) return r2
  // both wrapped: the lower sector, where the next sweep starts
  if (d1 < 0) return r1.sector <= r2.sector ? r1 : r2
  if (d1 !== d2) return d1 < d2 ? r1 : r2
  return r1.sector >= r2.sector ? r1 : r2
}

/**
 * as_find_next_arq: the request to follow `rq` (about to leave) in elevator order — its sector
 * successor (or, at the top, the lowest request: the sweep restarts) weighed against its predecessor.
 */
export function findNextRequest(sorted: SectorIndex, rq: Request, last: number): Request | null {
  const i = sorted.indexOf(rq)
  const prev = i > 0 ? sorted.at(i - 1) : null
  let next = i + 1 < sorted.size ? sorted.at(i + 1) : (sorted.first ?? null)
  if (next === rq) next = null
  return chooseRequest(last, next, prev)
}
