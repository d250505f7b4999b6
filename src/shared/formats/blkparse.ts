import type { FigureKind } from './figure-bounds'
import { figureProblem } from './figure-bounds'

/**
 * blkparse's default text output: `maj,min cpu seq time pid action rwbs sector + nsectors [process]`.
 * Only the events that describe I/O are read: Q (queued), D (dispatched to the device) and C
 * (completed); everything else (plugs, merges, splits, remaps, the summary at the end) is skipped.
 * A malformed Q/D/C line is an error naming its line number and what is wrong.
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

export class TraceParseError extends Error {
  constructor(
    readonly line: number,
    message: string,
    /** The part of the event line at fault. */
    readonly field = 'event',
  ) {
    super(`line ${line}: ${message}`)
    this.name = 'TraceParseError'
  }
}

/** A figure of an event line, or a TraceParseError saying why it cannot be one. */
function figure(kind: FigureKind, value: number, line: number, field: string, printed: string): number {
  const p = figureProblem(kind, value, printed)
  if (p !== null) throw new TraceParseError(line, p, field)
  return value
}

const LINE = /^\s*(\d+),(\d+)\s+(\d+)\s+(\d+)\s+(\d+\.\d+)\s+(\d+)\s+([A-Za-z])\s+(\S+)\s*(.*)$/

/** Parse blkparse text into its Q, D and C events, in file order. */
export function parseBlkparse(text: string): TraceEvent[] {
  const out: TraceEvent[] = []
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]
    if (raw.trim() === '') continue
    // the per-CPU and total summaries start here
    if (/^(CPU\d+|Total)\s*\(/.test(raw.trim()) || /^\s*(Reads|Writes|Events|Throughput)/.test(raw)) break
    const m = LINE.exec(raw)
    if (!m) {
      if (/^\s*\d+,\d+\s/.test(raw))
        throw new TraceParseError(i + 1, `not a blkparse event line: ${JSON.stringify(raw.slice(0, 80))}`)
      continue
    }
    const action = m[7]
    if (action !== 'Q' && action !== 'D' && action !== 'C') continue
    const rest = /^(\d+)\s*\+\s*(\d+)\s*(?:\[(.*)\])?/.exec(m[9])
    if (!rest) {
      // a C of a flush (no sector) or an error line: not I/O
      if (/^\[/.test(m[9]) || m[9] === '') continue
      throw new TraceParseError(
        i + 1,
        `expected "sector + nsectors" after "${action} ${m[8]}", got ${JSON.stringify(m[9].slice(0, 40))}`,
      )
    }
    const nsect = figure('count', Number(rest[2]), i + 1, 'nsectors', rest[2])
    if (nsect === 0) continue
    const sector = Number(rest[1])
    // the last byte it reaches: sectors are 512 bytes
    figure('bytes', (sector + nsect) * 512, i + 1, 'sector', `${rest[1]} + ${rest[2]}`)
    out.push({
      time: figure('time', Number(m[5]), i + 1, 'time', m[5]),
      pid: figure('count', Number(m[6]), i + 1, 'pid', m[6]),
      action,
      rwbs: m[8],
      sector,
      nsect,
      process: rest[3] ?? '',
      line: i + 1,
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
