import { checkFigure, checkNotBefore } from './figure-bounds'
import { ImportError, quote, splitLines } from './import-error'

/**
 * A `vmstat N` log: a group line (`procs ---memory--- … -----io---- …`), a column line
 * (`r b swpd free buff cache si so bi bo in cs us sy id wa st`, in any version's set and order —
 * 2003's procps has `w`, procps 4 `gu`), then one sample per line, the headers repeated every
 * screenful. `vmstat -t` adds a timestamp (`2026-11-30 08:47:20`) under a `-----timestamp-----`
 * group, its column named after the time zone. Columns are read by name; bi and bo are blocks
 * per second — 1 KiB blocks on Linux.
 */
export interface VmstatLog {
  /** Column names of the first header, e.g. r, b, swpd … bi, bo …; `timestamp` when present. */
  columns: string[]
  samples: VmstatSample[]
  /**
   * The first sample of a log that starts with vmstat's own header: vmstat prints averages since
   * boot there, not a measurement of the interval. It is in `samples`; importers leave it out.
   */
  firstIsSinceBoot: boolean
}

export interface VmstatSample {
  line: number
  values: Record<string, number>
  /** ms since 1970 of the `-t` timestamp (read as UTC; only differences matter), or null. */
  timeMs: number | null
}

const isNumber = (s: string): boolean => /^-?\d+(\.\d+)?$/.test(s)

/** True when a line is vmstat's column header (for format detection). */
export const isVmstatHeader = (line: string): boolean => {
  const t = line.trim().split(/\s+/)
  return t[0] === 'r' && t[1] === 'b' && t.includes('bi') && t.includes('bo')
}

export function parseVmstat(text: string): VmstatLog {
  const lines = splitLines(text)
  let columns: string[] | null = null
  let first: string[] | null = null
  let timestamped = false
  let groupHasTimestamp = false
  let firstIsSinceBoot = false
  let sawGroup = false
  const samples: VmstatSample[] = []
  let lastTimeMs: number | null = null
  lines.forEach((raw, i) => {
    const n = i + 1
    const line = raw.trim()
    if (line === '') return
    const t = line.split(/\s+/)
    if (/^-*procs\b/.test(line) || /-{3,}(memory|io|swap|system|cpu)/.test(line)) {
      groupHasTimestamp = /timestamp/.test(line)
      if (samples.length === 0) sawGroup = true
      return
    }
    if (isVmstatHeader(line)) {
      timestamped = groupHasTimestamp && !isKnownColumn(t[t.length - 1])
      columns = timestamped ? [...t.slice(0, -1), 'timestamp'] : t
      if (first === null) {
        first = columns
        firstIsSinceBoot = sawGroup || n === 1
      }
      return
    }
    if (!/^-?\d/.test(line)) return // a ^C, a shell prompt, a note
    if (columns === null)
      throw new ImportError('a sample before any vmstat header (the "r  b  swpd  free … bi  bo …" line)', n)
    const cols: string[] = columns
    const expected = timestamped ? cols.length + 1 : cols.length
    if (t.length !== expected)
      throw new ImportError(
        `${t.length} values, but the header has ${expected}${timestamped ? ' (with the date and time)' : ''} columns`,
        n,
        cols[Math.min(t.length, cols.length - 1)],
      )
    const values: Record<string, number> = {}
    const numeric = timestamped ? cols.length - 1 : cols.length
    for (let k = 0; k < numeric; k++) {
      if (!isNumber(t[k])) throw new ImportError(`expected a number, got ${quote(t[k])}`, n, cols[k])
      values[cols[k]] = Number(t[k])
      // bi and bo are 1 KiB blocks per second: a device's rate
      if (cols[k] === 'bi' || cols[k] === 'bo')
        checkFigure('throughput', values[cols[k]] * 1024, n, cols[k], `${t[k]} KiB/s`)
      else if (!Number.isFinite(values[cols[k]]))
        throw new ImportError(`${quote(t[k])} is not a finite number`, n, cols[k])
    }
    let timeMs: number | null = null
    if (timestamped) {
      const stamp = `${t[t.length - 2]} ${t[t.length - 1]}`
      const m = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)$/.exec(stamp)
      if (!m)
        throw new ImportError(
          `expected a date and time like 2026-11-30 08:47:20, got ${quote(stamp)}`,
          n,
          'timestamp',
        )
      timeMs = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6])
      const back = new Date(timeMs)
      const fields = [back.getUTCFullYear(), back.getUTCMonth() + 1, back.getUTCDate(), back.getUTCHours()]
      fields.push(back.getUTCMinutes(), back.getUTCSeconds())
      // Date.UTC rolls 2026-02-30 over into March: a date that does not exist is not a time
      if (fields.some((f, k) => f !== Number(m[k + 1])))
        throw new ImportError(`${quote(stamp)} is not a date and time that exists`, n, 'timestamp')
      checkNotBefore(
        timeMs,
        lastTimeMs,
        n,
        'timestamp',
        (ms) => new Date(ms).toISOString().slice(0, 19).replace('T', ' '),
        'a clock that was set back, or a daylight-saving change: vmstat -t prints local time',
      )
      lastTimeMs = timeMs
    }
    samples.push({ line: n, values, timeMs })
  })
  if (first === null)
    throw new ImportError('no vmstat header ("r  b  swpd  free … bi  bo …")', Math.max(1, lines.length))
  if (samples.length === 0) throw new ImportError('no samples after the vmstat header', lines.length)
  if (!('bi' in samples[0].values) || !('bo' in samples[0].values))
    throw new ImportError('the header has no bi and bo columns', 1, 'bi')
  return { columns: first, samples, firstIsSinceBoot }
}

const KNOWN = new Set(
  'r b w swpd free buff cache inact active si so bi bo in cs us sy id wa st gu'.split(' '),
)
const isKnownColumn = (s: string): boolean => KNOWN.has(s)
