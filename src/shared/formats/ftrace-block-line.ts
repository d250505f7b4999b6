import type { BlkparseEvent } from './blkparse-line'
import { TraceParseError } from './blkparse-line'

/**
 * A line of the kernel's block tracepoints as tracefs prints them (`trace_pipe`; the formats are
 * the events' `print fmt`, include/trace/events/block.h), read as the blktrace event it stands
 * for — the same events blktrace records, through ftrace instead of its relay files:
 *
 *     fio-8930 [001] ..... 11979.150865: block_bio_queue: 7,3 RA 47203648 + 24 [fio]
 *     fio-8930 [001] ..... 11979.150888: block_rq_issue: 7,3 RA 12288 () 47203648 + 24 be,0,4 [fio]
 *     <idle>-0 [001] ..s1. 11979.151092: block_rq_complete: 7,3 RA () 47203648 + 24 be,0,4 [0]
 *     node-77 [000] ..... 11979.100000: tracing_mark_write: iosched-lab start
 *
 * block_bio_queue → Q, block_getrq → G, block_bio_backmerge → M, block_bio_frontmerge → F,
 * block_split → X, block_rq_insert → I, block_rq_issue → D, block_rq_requeue → R,
 * block_rq_complete → C; a write to `trace_marker` → m. A request without data (an empty flush)
 * prints `0 + 0`: its sector is −1 here, as in blkparse's output. Other lines give null.
 */
const ACTIONS: Record<string, string> = {
  block_bio_queue: 'Q',
  block_getrq: 'G',
  block_bio_backmerge: 'M',
  block_bio_frontmerge: 'F',
  block_split: 'X',
  block_rq_insert: 'I',
  block_rq_issue: 'D',
  block_rq_requeue: 'R',
  block_rq_complete: 'C',
}

const HEAD = /^\s*(.*?)-(\d+)\s+(?:\(\s*[-\d]+\)\s+)?\[(\d+)\]\s+(?:\S+\s+)?(\d+)\.(\d+):\s+(\w+):\s?(.*)$/
const DEV = /^(\d+),(\d+)\s+(\S+)\s+(.*)$/
/** bio events: `sector + n [comm]`; split: `sector / new [comm]`. */
const BIO = /^(\d+)\s*([+/])\s*(\d+)\s*\[(.*)\]\s*$/
/** request events: `[bytes] (cmd) sector + n prio [comm or error]`. */
const RQ = /^(?:\d+\s+)?\(.*?\)\s+(\d+)\s*\+\s*(\d+)\s+\S+\s+\[(.*)\]\s*$/

export function parseFtraceBlockLine(raw: string, line: number): BlkparseEvent | null {
  const m = HEAD.exec(raw)
  if (!m) return null
  const ns = Number(m[4]) * 1e9 + Number(m[5].padEnd(9, '0').slice(0, 9))
  const base = { cpu: Number(m[3]), ns, pid: Number(m[2]), line }
  if (m[6] === 'tracing_mark_write')
    return {
      ...base,
      dev: '',
      action: 'm',
      rwbs: 'N',
      sector: -1,
      nsect: 0,
      process: m[1],
      message: m[7].trim(),
    }
  const action = ACTIONS[m[6]]
  if (action === undefined) return null
  const d = DEV.exec(m[7])
  if (!d)
    throw new TraceParseError(
      line,
      `expected "maj,min rwbs …" after ${m[6]}, got ${JSON.stringify(m[7].slice(0, 60))}`,
    )
  const e: BlkparseEvent = {
    ...base,
    dev: `${d[1]},${d[2]}`,
    action,
    rwbs: d[3],
    sector: -1,
    nsect: 0,
    process: '',
  }
  const b = BIO.exec(d[4])
  const r = b ? null : RQ.exec(d[4])
  if (b) {
    e.sector = Number(b[1])
    if (b[2] === '/') {
      e.splitAt = Number(b[3])
      e.nsect = e.splitAt - e.sector
    } else e.nsect = Number(b[3])
    e.process = b[4]
  } else if (r) {
    e.sector = Number(r[1])
    e.nsect = Number(r[2])
    e.process = r[3]
  } else
    throw new TraceParseError(
      line,
      `cannot read the sectors of ${m[6]}: ${JSON.stringify(d[4].slice(0, 60))}`,
      'sector',
    )
  if (!Number.isSafeInteger(e.sector) || !Number.isSafeInteger(e.nsect) || e.nsect < 0)
    throw new TraceParseError(
      line,
      `impossible sectors in ${m[6]}: ${JSON.stringify(d[4].slice(0, 60))}`,
      'sector',
    )
  // an empty flush (or passthrough request) names no sectors
  if (e.nsect === 0 && !e.splitAt) e.sector = -1
  return e
}
