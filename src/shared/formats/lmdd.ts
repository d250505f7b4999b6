import { checkFigure } from './figure-bounds'
import { ImportError, parseDecimal, quote, splitLines } from './import-error'

/**
 * lmdd's (lmbench) summary line, printed when it finishes: `[label]8.1920 MB in 0.0123 secs,
 * 666.0000 MB/sec` — MB = 10^6 bytes (lmbench counts "disk sizes and bandwidths in powers of
 * ten"). `label=` text comes first, glued to the figures; `rusage=1` adds a line before it:
 * `real=… sys=… user=… idle=… stall=…% rd=… wr=… min=… maj=… ctx=…`. Every summary is one run.
 */
export interface LmddSummary {
  /** 1-based line of the summary. */
  line: number
  label: string
  /** MB (10^6 bytes) as printed, and in bytes. */
  mb: number
  bytes: number
  seconds: number
  /** MB/s as printed. */
  reportedMBps: number
  /** From the rusage line just before, when lmdd printed one. */
  rusage: { real: number; sys: number; user: number; idle: number } | null
}

const SUMMARY = /^(.*?)([-+]?[\d.,]+) MB in (\S+) secs, (\S+) MB\/sec$/
const RUSAGE = /^real=(\S+) sys=(\S+) user=(\S+) idle=(\S+) stall=/

/** True when a line is an lmdd summary (for format detection). */
export const isLmddSummary = (line: string): boolean => SUMMARY.test(line.trim())

export function parseLmdd(text: string): LmddSummary[] {
  const lines = splitLines(text)
  const out: LmddSummary[] = []
  let rusage: LmddSummary['rusage'] = null
  lines.forEach((raw, i) => {
    const n = i + 1
    const line = raw.trim()
    const num = (s: string, field: string): number => {
      const v = parseDecimal(s)
      if (!(v >= 0 && Number.isFinite(v)))
        throw new ImportError(`expected a number, got ${quote(s)}`, n, field)
      return v
    }
    const r = RUSAGE.exec(line)
    if (r) {
      const time = (k: number, field: string): number => checkFigure('time', num(r[k], field), n, field, r[k])
      rusage = { real: time(1, 'real'), sys: time(2, 'sys'), user: time(3, 'user'), idle: num(r[4], 'idle') }
      return
    }
    const m = SUMMARY.exec(line)
    if (!m) {
      if (/\bMB in\b.*\bsecs\b/.test(line))
        throw new ImportError(
          `not an lmdd summary: expected "X MB in S secs, R MB/sec", got ${quote(line, 100)}`,
          n,
        )
      return
    }
    const mb = num(m[2], 'MB')
    const bytes = checkFigure('bytes', Math.round(mb * 1e6), n, 'MB', `${m[2]} MB`)
    const seconds = checkFigure('duration', num(m[3], 'secs'), n, 'secs', `${m[3]} secs`)
    const reportedMBps = num(m[4], 'MB/sec')
    checkFigure('throughput', reportedMBps * 1e6, n, 'MB/sec', `${m[4]} MB/sec`)
    checkFigure('throughput', bytes / seconds, n, 'secs', `${m[2]} MB in ${m[3]} secs`)
    out.push({ line: n, label: m[1].trim(), mb, bytes, seconds, reportedMBps, rusage })
    rusage = null
  })
  if (out.length === 0)
    throw new ImportError('no lmdd summary ("X MB in S secs, R MB/sec")', Math.max(1, lines.length))
  return out
}
