import { isSummaryLine, parseBlkparseLine } from './blkparse-line'
import type { BlkparseEvent } from './blkparse-line'

export { TraceParseError } from './blkparse-line'

/**
 * blkparse's default text output: `maj,min cpu seq time pid action rwbs sector + nsectors [process]`.
 * Only the events that describe I/O are read: Q (queued), D (dispatched to the device) and C
 * (completed); everything else (plugs, merges, splits, remaps, the summary at the end) is skipped.
 * A malformed event line is an error naming its line number and what is wrong (blkparse-line.ts
 * reads every action; `parseBlkparseEvents` keeps them all).
 */
export interface TraceEvent {
  /** Seconds since the trace started, as blkparse prints them. */
  time: number
  pid: number
  action: 'Q' | 'D' | 'C'
  /** R/W/D/N … with flags: S (sync), A (read-ahead), M (meta), F (flush/FUA). */
  rwbs: string
  sector: number
  nsect: number
  process: string
  line: number
}

/** Every event of blkparse text, in file order, up to the summary. */
export function parseBlkparseEvents(text: string): BlkparseEvent[] {
  const out: BlkparseEvent[] = []
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    // the per-CPU and total summaries start here
    if (isSummaryLine(lines[i])) break
    const e = parseBlkparseLine(lines[i], i + 1)
    if (e) out.push(e)
  }
  return out
}

/** Parse blkparse text into its Q, D and C events with data, in file order. */
export const parseBlkparse = (text: string): TraceEvent[] => queueDispatchComplete(parseBlkparseEvents(text))

/** The Q, D and C events with data of a trace's events. */
export function queueDispatchComplete(events: readonly BlkparseEvent[]): TraceEvent[] {
  const out: TraceEvent[] = []
  for (const e of events) {
    const a = e.action
    if ((a !== 'Q' && a !== 'D' && a !== 'C') || e.nsect === 0) continue
    out.push({
      time: e.ns / 1e9,
      pid: e.pid,
      action: a,
      rwbs: e.rwbs,
      sector: e.sector,
      nsect: e.nsect,
      process: e.process,
      line: e.line,
    })
  }
  return out
}

/** Pair each D with its C (by sector, in order): the device's service times in seconds. */
export function deviceServiceTimes(events: readonly TraceEvent[]): number[] {
  const pending = new Map<string, number[]>()
  const out: number[] = []
  for (const e of events) {
    const key = `${e.sector}+${e.nsect}`
    if (e.action === 'D') {
      const q = pending.get(key)
      if (q) q.push(e.time)
      else pending.set(key, [e.time])
    } else if (e.action === 'C') {
      const q = pending.get(key)
      const t = q?.shift()
      if (t !== undefined) out.push(e.time - t)
    }
  }
  return out
}

export const isWrite = (rwbs: string): boolean => rwbs.includes('W')
export const isSync = (rwbs: string): boolean => !isWrite(rwbs) || rwbs.includes('S')
