import { checkFigure } from './figure-bounds'
import { ImportError, parseDecimal, quote, splitLines } from './import-error'

/**
 * KDiskMark's saved text report: a banner naming KDiskMark's and fio's versions, sections
 * `[Read]`, `[Write]`, `[Mix] …` with one line per test —
 * `Sequential 1 MiB (Q= 8, T= 1):  3519.479 MB/s [ 3356.4 IOPS] <  2380.46 us>` — then
 * `Profile:`, `Test: 1 GiB (x5) [Measure: 5 sec / Interval: 5 sec]`, `Date:`, `OS:`.
 *
 * KDiskMark's "MB/s" is fio's `bw` (KiB/s) divided by 1000, not bytes / 10^6: 2.3 % low. Both the
 * reported figure and the corrected one (× 1.024) are kept.
 */
export interface KDiskMarkReport {
  version: string | null
  fioVersion: string | null
  tests: KDiskMarkTest[]
  profile: string | null
  /** Test file size in bytes and the number of runs (`1 GiB (x5)`). */
  testBytes: number | null
  runs: number | null
  /** Seconds each test measured (`Measure: 5 sec`), when printed. */
  measureSeconds: number | null
  date: string | null
  os: string | null
}

export interface KDiskMarkTest {
  line: number
  /** `read`, `write` or `mix` (the section). */
  section: 'read' | 'write' | 'mix'
  /** `Sequential` or `Random`. */
  pattern: string
  blockBytes: number
  queueDepth: number
  threads: number
  /** As printed: fio's bw (KiB/s) / 1000. */
  reportedMBps: number
  /** bytes / 10^6 per second: reported × 1.024. */
  MBps: number
  iops: number
  /** Mean latency, µs. */
  latencyUs: number | null
  /** `SEQ1M Q8T1` — CrystalDiskMark's name of the test. */
  name: string
}

const UNITS: Record<string, number> = { B: 1, KiB: 1024, MiB: 2 ** 20, GiB: 2 ** 30, TiB: 2 ** 40 }

const TEST =
  /^(\w+)\s+(\S+)\s+(\w+)\s*\(Q=\s*(\S+),\s*T=\s*(\S+)\):\s*(\S+)\s+MB\/s\s*\[\s*(\S+)\s+IOPS\]\s*(?:<\s*(\S+)\s+us>)?$/
const TEST_START = /^(Sequential|Random)\s+\S+\s+\S+\s*\(Q=/

/** True when the text is a KDiskMark report (for format detection). */
export const isKDiskMark = (text: string): boolean =>
  /\b(KDiskMark|[a-z]*DiskMark) \([\w.]+\)/.test(text.slice(0, 2000)) ||
  (/^\[(Read|Write)\]\s*$/m.test(text) && splitLines(text).some((l) => TEST_START.test(l.trim())))

export function parseKDiskMark(text: string): KDiskMarkReport {
  const lines = splitLines(text)
  const report: KDiskMarkReport = {
    version: null,
    fioVersion: null,
    tests: [],
    profile: null,
    testBytes: null,
    runs: null,
    measureSeconds: null,
    date: null,
    os: null,
  }
  let section: KDiskMarkTest['section'] | null = null
  lines.forEach((raw, i) => {
    const n = i + 1
    const line = raw.trim()
    let m = /DiskMark \(([\w.]+)\)/.exec(line)
    if (m) report.version = m[1]
    m = /\(fio-([\w.]+)\)/.exec(line)
    if (m) report.fioVersion = m[1]
    m = /^\[(Read|Write|Mix)\b[^\]]*\]/i.exec(line)
    if (m) {
      section = m[1].toLowerCase() as KDiskMarkTest['section']
      return
    }
    m = /^(Profile|Test|Date|OS):\s*(.*)$/.exec(line)
    if (m) {
      if (m[1] === 'Profile') report.profile = m[2]
      else if (m[1] === 'Date') report.date = m[2]
      else if (m[1] === 'OS') report.os = m[2]
      else testLine(m[2], n, report)
      return
    }
    if (!TEST_START.test(line)) return
    if (section === null) throw new ImportError('a test line before any [Read], [Write] or [Mix] section', n)
    report.tests.push(test(line, n, section))
  })
  if (report.tests.length === 0)
    throw new ImportError(
      'no KDiskMark test line ("Sequential 1 MiB (Q= 8, T= 1): 3519.479 MB/s [3356.4 IOPS] <2380.46 us>")',
      Math.max(1, lines.length),
    )
  return report
}

function test(line: string, n: number, section: KDiskMarkTest['section']): KDiskMarkTest {
  const m = TEST.exec(line)
  if (!m)
    throw new ImportError(
      `not a KDiskMark test line: expected "Sequential 1 MiB (Q= 8, T= 1): R MB/s [I IOPS] <L us>", got ${quote(line, 100)}`,
      n,
    )
  const num = (s: string, field: string): number => {
    const v = parseDecimal(s)
    if (!(v >= 0 && Number.isFinite(v))) throw new ImportError(`expected a number, got ${quote(s)}`, n, field)
    return v
  }
  const int = (s: string, field: string): number => {
    if (!/^\d+$/.test(s)) throw new ImportError(`expected a whole number, got ${quote(s)}`, n, field)
    return Number(s)
  }
  if (!(m[3] in UNITS)) throw new ImportError(`unknown block size unit ${quote(m[3])}`, n, 'block size')
  const size = num(m[2], 'block size')
  const blockBytes = checkFigure('bytes', size * UNITS[m[3]], n, 'block size', `${m[2]} ${m[3]}`)
  const queueDepth = checkFigure('count', int(m[4], 'Q'), n, 'Q')
  const threads = checkFigure('count', int(m[5], 'T'), n, 'T')
  const reportedMBps = num(m[6], 'MB/s')
  // KDiskMark's MB/s is KiB/s ÷ 1000: the rate in B/s is × 1024
  checkFigure('throughput', reportedMBps * 1024e3, n, 'MB/s', `${m[6]} MB/s`)
  const iops = checkFigure('iops', num(m[7], 'IOPS'), n, 'IOPS', `${m[7]} IOPS`)
  const latencyUs = m[8] === undefined ? null : num(m[8], 'us')
  if (latencyUs !== null) checkFigure('time', latencyUs / 1e6, n, 'us', `${m[8]} us`)
  const abbrev =
    blockBytes >= 2 ** 20
      ? `${blockBytes / 2 ** 20}M`
      : blockBytes >= 1024
        ? `${blockBytes / 1024}K`
        : `${blockBytes}`
  return {
    line: n,
    section,
    pattern: m[1],
    blockBytes,
    queueDepth,
    threads,
    reportedMBps,
    MBps: reportedMBps * 1.024,
    iops,
    latencyUs,
    name: `${/^seq/i.test(m[1]) ? 'SEQ' : 'RND'}${abbrev} Q${queueDepth}T${threads}`,
  }
}

function testLine(s: string, n: number, report: KDiskMarkReport): void {
  const m = /^(\S+)\s+(B|KiB|MiB|GiB|TiB)\s*(?:\(x(\d+)\))?(.*)$/.exec(s)
  if (!m) return
  const size = parseDecimal(m[1])
  if (!(size >= 0)) throw new ImportError(`expected a test size, got ${quote(m[1])}`, n, 'Test')
  report.testBytes = checkFigure('bytes', size * UNITS[m[2]], n, 'Test', `${m[1]} ${m[2]}`)
  report.runs = m[3] === undefined ? null : checkFigure('count', Number(m[3]), n, 'Test', `x${m[3]}`)
  const measure = /Measure:\s*(\d+)\s*sec/.exec(m[4])
  report.measureSeconds = measure
    ? checkFigure('duration', Number(measure[1]), n, 'Measure', `${measure[1]} sec`)
    : null
}
