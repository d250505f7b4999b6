import { checkFigure } from './figure-bounds'
import { ImportError, parseDecimal, quote, splitLines } from './import-error'

/**
 * What dd prints when it finishes, in every form the lab has met:
 * - GNU coreutils ≥ 8.24: `N bytes (655 kB, 640 KiB) copied, 0.0005 s, 1.3 GB/s` (`1 byte copied, …`);
 * - GNU coreutils 6 – 8.23 and busybox: `N bytes (105 MB) copied, 0.123 s, 852 MB/s` (`… seconds, …`);
 * - GNU coreutils 5, BSD, macOS: `N bytes transferred in 12.48 secs (10751652 bytes/sec)`;
 * - FreeBSD ≥ 12: `N bytes (134 MB, 128 MiB) transferred 12.480s, 10 MB/s`;
 * each after its `F+P records in` / `F+P records out` lines. Decimals may use a comma (locales).
 * Every summary is one run (a file may hold several dd's, or a looping dd); `status=progress`
 * lines (ended by a carriage return, with no records lines before them) are skipped.
 */
export interface DdSummary {
  /** 1-based line of the summary. */
  line: number
  flavour: 'gnu' | 'bsd'
  bytes: number
  seconds: number
  /** The rate as printed, with its unit (`MB/s`, `bytes/sec`); null for `inf`. */
  reported: { value: number; unit: string } | null
  /** The printed rate in bytes per second (null for `inf`). */
  reportedBytesPerSecond: number | null
  /** Full and partial blocks (null when dd did not print them). */
  recordsIn: { full: number; partial: number } | null
  recordsOut: { full: number; partial: number } | null
}

const RATE_UNITS: Record<string, number> = {
  B: 1,
  kB: 1e3,
  KB: 1e3,
  MB: 1e6,
  GB: 1e9,
  TB: 1e12,
  PB: 1e15,
  EB: 1e18,
  KiB: 2 ** 10,
  MiB: 2 ** 20,
  GiB: 2 ** 30,
  TiB: 2 ** 40,
  PiB: 2 ** 50,
  EiB: 2 ** 60,
}

const GNU = /^(\S+) bytes? (?:\([^)]*\) )?copied, (\S+) (s|secs?|seconds?), (\S+) (\S+)$/
const BSD_OLD = /^(\S+) bytes? (?:\([^)]*\) )?transferred in (\S+) (secs?|seconds?) \((\S+) bytes\/sec\)$/
const BSD_NEW = /^(\S+) bytes? (?:\([^)]*\) )?transferred (\S+?)s, (\S+) (\S+)$/
const RECORDS = /^(\S+) records (in|out)$/
const SUMMARY_START = /^\d+ bytes?\b.*\b(copied|transferred)\b/

/** True when a line looks like a dd summary of any flavour (for format detection). */
export const isDdSummary = (line: string): boolean => SUMMARY_START.test(line.trim())

/** Parse every dd summary of `text`. */
export function parseDd(text: string): DdSummary[] {
  const lines = splitLines(text)
  const anyRecords = lines.some((l) => / records (in|out)\s*$/.test(l))
  const out: DdSummary[] = []
  let recordsIn: DdSummary['recordsIn'] = null
  let recordsOut: DdSummary['recordsOut'] = null
  lines.forEach((raw, i) => {
    const n = i + 1
    // a terminal shows what follows the last carriage return
    const parts = raw.split('\r')
    const line = parts[parts.length - 1].trim()
    const r = RECORDS.exec(line)
    if (r) {
      const m = /^(\d+)\+(\d+)$/.exec(r[1])
      if (!m)
        throw new ImportError(`expected F+P (full+partial blocks), got ${quote(r[1])}`, n, `records ${r[2]}`)
      const field = `records ${r[2]}`
      const v = {
        full: checkFigure('count', Number(m[1]), n, field, m[1]),
        partial: checkFigure('count', Number(m[2]), n, field, m[2]),
      }
      if (r[2] === 'in') recordsIn = v
      else recordsOut = v
      return
    }
    if (!SUMMARY_START.test(line)) return
    // a progress line of status=progress: nothing before it in the records lines
    if (anyRecords && recordsOut === null && recordsIn === null) return
    const sum = summary(line, n)
    // the figures together: bytes in the time dd measured
    checkFigure('throughput', sum.bytes / sum.seconds, n, 'seconds', `${sum.bytes} bytes in ${sum.seconds} s`)
    out.push({ ...sum, recordsIn, recordsOut })
    recordsIn = null
    recordsOut = null
  })
  if (out.length === 0)
    throw new ImportError(
      'no dd summary ("N bytes (…) copied, S s, R MB/s" or "N bytes transferred in S secs (R bytes/sec)")',
      Math.max(1, lines.length),
    )
  return out
}

function summary(line: string, n: number): Omit<DdSummary, 'recordsIn' | 'recordsOut'> {
  const bytesOf = (s: string): number => {
    if (!/^\d+$/.test(s))
      throw new ImportError(`expected a whole number of bytes, got ${quote(s)}`, n, 'bytes')
    return checkFigure('bytes', Number(s), n, 'bytes', s)
  }
  const secondsOf = (s: string): number => {
    const v = parseDecimal(s)
    if (!(v >= 0)) throw new ImportError(`expected a number of seconds, got ${quote(s)}`, n, 'seconds')
    return checkFigure('duration', v, n, 'seconds', `${s} s`)
  }
  /** The printed rate in B/s, checked (null for inf). */
  const bps = (value: number | null, perUnit: number, printed: string): number | null =>
    value === null ? null : checkFigure('throughput', value * perUnit, n, 'rate', printed)
  const rateOf = (s: string): number | null => {
    if (/^(inf|infinity)$/i.test(s)) return null
    const v = parseDecimal(s)
    if (!(v >= 0)) throw new ImportError(`expected a rate, got ${quote(s)}`, n, 'rate')
    return v
  }
  const unitOf = (s: string): string => {
    const u = s.replace(/\/s(ec)?$/, '')
    if (!(u in RATE_UNITS) || !/\/s(ec)?$/.test(s))
      throw new ImportError(`expected a rate unit like MB/s, got ${quote(s)}`, n, 'rate unit')
    return u
  }
  let m = GNU.exec(line)
  if (m) {
    const value = rateOf(m[4])
    const unit = unitOf(m[5])
    return {
      line: n,
      flavour: 'gnu',
      bytes: bytesOf(m[1]),
      seconds: secondsOf(m[2]),
      reported: value === null ? null : { value, unit: `${unit}/s` },
      reportedBytesPerSecond: bps(value, RATE_UNITS[unit], `${m[4]} ${m[5]}`),
    }
  }
  m = BSD_OLD.exec(line)
  if (m) {
    const value = rateOf(m[4])
    return {
      line: n,
      flavour: /seconds/.test(m[3]) ? 'gnu' : 'bsd',
      bytes: bytesOf(m[1]),
      seconds: secondsOf(m[2]),
      reported: value === null ? null : { value, unit: 'bytes/sec' },
      reportedBytesPerSecond: bps(value, 1, `${m[4]} bytes/sec`),
    }
  }
  m = BSD_NEW.exec(line)
  if (m) {
    const value = rateOf(m[3])
    const unit = unitOf(m[4])
    return {
      line: n,
      flavour: 'bsd',
      bytes: bytesOf(m[1]),
      seconds: secondsOf(m[2]),
      reported: value === null ? null : { value, unit: `${unit}/s` },
      reportedBytesPerSecond: bps(value, RATE_UNITS[unit], `${m[3]} ${m[4]}`),
    }
  }
  throw new ImportError(
    `not a dd summary: expected "N bytes (…) copied, S s, R MB/s" or "N bytes transferred in S secs (R bytes/sec)", got ${quote(line, 100)}`,
    n,
  )
}
