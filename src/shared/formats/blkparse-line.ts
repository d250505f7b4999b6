import type { FigureKind } from './figure-bounds'
import { figureProblem } from './figure-bounds'

/**
 * One event line of blkparse's default text output, of any action. blkparse(1), "DEFAULT OUTPUT":
 * every line starts `%D %2c %8s %5T.%9t %5p %2a %3d` (device, CPU, sequence, seconds.nanoseconds,
 * pid, action, RWBS), then depends on the action:
 *
 * - Q G I M F S B (queue, get request, insert, back/front merge, sleep, bounce), D (issue):
 *   `sector + blocks [command]`, or `[command]` alone for an event without data (an empty flush),
 *   or `(payload) [command]` for a passthrough request;
 * - C (complete): `sector + blocks [error]` (the error number where the others have the command);
 * - X (split): `sector / new-sector [command]`;
 * - A (remap): `sector + blocks <- (maj,min) sector`;
 * - P U UT (plug, unplug): `[command]` and the queue depth; m (message): the message's text.
 */
export interface BlkparseEvent {
  /** `maj,min` of the traced device. */
  dev: string
  cpu: number
  /** Nanoseconds since the trace began, exact (from the printed seconds and nanoseconds). */
  ns: number
  pid: number
  /** The action letter(s): Q G I D C M F X A R P U UT S B m … */
  action: string
  /** R/W/D/N … with flags: F (flush/FUA), S (sync), M (meta), A (read-ahead). */
  rwbs: string
  /** First sector, or −1 when the event names none (empty flushes, plugs, messages). */
  sector: number
  nsect: number
  /** X (split): where the second part begins. */
  splitAt?: number
  /** The command in brackets; on C lines the error number is printed there instead. */
  process: string
  /** m: the message's text. */
  message?: string
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

const HEAD = /^\s*(\d+),(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\.(\d+)\s+(\d+)\s+([A-Za-z]{1,2})\s+(\S+)\s*(.*)$/
const RANGE = /^(\d+)\s*\+\s*(\d+)\s*(?:\[(.*)\])?/
const SPLIT = /^(\d+)\s*\/\s*(\d+)\s*(?:\[(.*)\])?/
const BRACKET = /^(?:\((.*?)\)\s*)?\[(.*)\]/
/** Actions about a block I/O: they name its sectors (or, without data, nothing). */
const IO_ACTIONS = new Set(['Q', 'G', 'I', 'D', 'C', 'M', 'F', 'X', 'A', 'R', 'S', 'B'])

/** Is this line where blkparse's per-CPU and total summaries begin? */
export const isSummaryLine = (raw: string): boolean =>
  /^(CPU\d+|Total)\s*\(/.test(raw.trim()) || /^\s*(Reads|Writes|Events|Throughput)/.test(raw)

/**
 * One line of blkparse output as an event; null for a line that is no event (blank, or text
 * blkparse prints around events). Throws a TraceParseError naming the line and field for an event
 * line that is malformed.
 */
export function parseBlkparseLine(raw: string, line: number): BlkparseEvent | null {
  if (raw.trim() === '') return null
  const m = HEAD.exec(raw)
  if (!m) {
    if (/^\s*\d+,\d+\s/.test(raw))
      throw new TraceParseError(line, `not a blkparse event line: ${JSON.stringify(raw.slice(0, 80))}`)
    return null
  }
  const action = m[8]
  const rest = m[10]
  // %9t: nanoseconds, printed with nine digits
  const frac = m[6].padEnd(9, '0').slice(0, 9)
  const seconds = figure('time', Number(`${m[5]}.${m[6]}`), line, 'time', `${m[5]}.${m[6]}`)
  const e: BlkparseEvent = {
    dev: `${m[1]},${m[2]}`,
    cpu: Number(m[3]),
    ns: Math.floor(seconds) * 1e9 + Number(frac),
    pid: figure('count', Number(m[7]), line, 'pid', m[7]),
    action,
    rwbs: m[9],
    sector: -1,
    nsect: 0,
    process: '',
    line,
  }
  if (action === 'm') {
    e.message = rest.trim()
    return e
  }
  if (!IO_ACTIONS.has(action)) {
    const b = /^\[(.*?)\]/.exec(rest)
    if (b) e.process = b[1]
    return e
  }
  const split = action === 'X' ? SPLIT.exec(rest) : null
  const range = split ? null : RANGE.exec(rest)
  if (split) {
    e.sector = sectorOf(split[1], line)
    e.splitAt = sectorOf(split[2], line)
    e.nsect = e.splitAt - e.sector
    if (e.nsect <= 0)
      throw new TraceParseError(line, `split at ${split[2]} is not after its start ${split[1]}`, 'sector')
    e.process = split[3] ?? ''
  } else if (range) {
    e.nsect = figure('count', Number(range[2]), line, 'nsectors', range[2])
    e.sector = sectorOf(range[1], line)
    // the last byte it reaches: sectors are 512 bytes
    figure('bytes', (e.sector + e.nsect) * 512, line, 'sector', `${range[1]} + ${range[2]}`)
    e.process = range[3] ?? ''
  } else {
    // an event without data (an empty flush), or a passthrough request's payload
    const b = BRACKET.exec(rest)
    if (!b && rest !== '')
      throw new TraceParseError(
        line,
        `expected "sector + nsectors" after "${action} ${m[9]}", got ${JSON.stringify(rest.slice(0, 40))}`,
      )
    e.process = b?.[2] ?? ''
  }
  return e
}

function sectorOf(printed: string, line: number): number {
  return figure('bytes', Number(printed) * 512, line, 'sector', printed) / 512
}
