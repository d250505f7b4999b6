import { checkFigure } from './figure-bounds'
import { ImportError, quote, splitLines } from './import-error'

/**
 * bonnie++'s CSV lines (what `-q` prints, what bon_csv2html reads), every line of a file (`-x N`
 * prints N). Three layouts:
 * - 1.03: `name,size,putc,putc_cpu,…,seeks,seeks_cpu,num_files,seq_create,…,ran_del_cpu`;
 * - 1.9x (format 1.93c–1.97): `format,version,name,concurrency,seed,size,chunk,putc,…`, then
 *   `num_files,max_size,min_size,num_dirs,file_chunk_size`, the file tests, and one latency per
 *   test (`82470us`, `1178ms`, `1s`);
 * - format 1.98+ (bonnie++ 1.98, 2.0x): `seeks,seek_proc_count` after the chunk size, shifting every
 *   later field by two.
 * Measurements are (rate, %CPU) pairs; `+++++` (`+++` for the CPU) means "too fast to measure":
 * null here, never a number. The header line bonnie++ 1.9x prints (`format_version,…`) and any
 * line of its human-readable table are skipped.
 */
export const BONNIE_TESTS = [
  'putc',
  'put_block',
  'rewrite',
  'getc',
  'get_block',
  'seeks',
  'seq_create',
  'seq_stat',
  'seq_del',
  'ran_create',
  'ran_stat',
  'ran_del',
] as const
export type BonnieTest = (typeof BONNIE_TESTS)[number]

/** The tests whose rate is K/s (1024 bytes); the others count operations per second. */
const KB_RATE_TESTS: ReadonlySet<BonnieTest> = new Set(['putc', 'put_block', 'rewrite', 'getc', 'get_block'])

export interface BonnieMeasure {
  /** K/s (1024 bytes) for putc … get_block, per second for seeks and the file tests; null when not run or +++++. */
  rate: number | null
  /** `+++++`: finished too quickly for bonnie++ to time it. */
  tooFast: boolean
  cpuPercent: number | null
  /** Longest single operation (1.9x only), ms; null when not printed. */
  latencyMs: number | null
}

export interface BonnieRecord {
  /** 1-based line of the file. */
  line: number
  /** `1.03`, or the 1.9x format version (`1.96`, `1.97`, `1.98`). */
  format: string
  /** bonnie++ version (1.9x lines), e.g. `2.00a`. */
  version: string | null
  machine: string
  concurrency: number | null
  /** The file size field as printed (`2G`, `300M`, or MiB without a unit in 1.03). */
  size: string
  sizeBytes: number
  /** Block size of the block tests (`-s size:chunk`), bytes; null when not printed (default 8 KiB). */
  chunkBytes: number | null
  /** Seeks in all and seeker processes (format 1.98+ prints them; null before). */
  seeks: number | null
  seekProcesses: number | null
  /** `-n`: files ×1024 for the file tests; null when they were skipped. */
  files: number | null
  tests: Record<BonnieTest, BonnieMeasure>
}

const SIZE_UNITS: Record<string, number> = { '': 2 ** 20, K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40 }

/** Where each part of a line lies, by layout. */
interface Layout {
  format: string
  putc: number
  files: number
  create: number
  latency: number
  minFields: number
}

function layoutOf(first: string): Layout {
  if (/^1\.9\d[a-z]?$/.test(first) || /^[2-9]\.\d+[a-z]?$/.test(first)) {
    const shifted = Number.parseFloat(first) >= 1.98
    const putc = shifted ? 9 : 7
    // 1.9x: … seeks pair, num_files, max_size, min_size, num_dirs, file_chunk_size, file tests, latencies
    return {
      format: first,
      putc,
      files: putc + 12,
      create: putc + 17,
      latency: putc + 29,
      minFields: putc + 12,
    }
  }
  return { format: '1.03', putc: 2, files: 14, create: 15, latency: -1, minFields: 14 }
}

const VERSION = /^(1\.9\d[a-z]?|[2-9]\.\d+[a-z]?)$/

/** True when a line is (the start of) a bonnie++ CSV record — not its header, not its table. */
export function looksLikeBonnieCsv(line: string): boolean {
  const f = line.split(',')
  if (f.length < 4 || f[0] === 'format_version') return false
  if (VERSION.test(f[0])) return /^\d[\w.]*$/.test(f[1]) && f[2].trim() !== ''
  return f[0].trim() !== '' && /^\d+(\.\d+)?[KMGT]?$/i.test(f[1]) && /^(\d+|\++|)$/.test(f[2])
}

/** Parse every bonnie++ CSV line of `text`. */
export function parseBonnieCsv(text: string): BonnieRecord[] {
  const lines = splitLines(text)
  const out: BonnieRecord[] = []
  lines.forEach((raw, i) => {
    const line = raw.trim()
    if (line === '' || line.startsWith('format_version,')) return
    if (!looksLikeBonnieCsv(line)) {
      if (line.split(',').length >= 20)
        throw new ImportError(
          `not a bonnie++ CSV line: starts with ${quote(line, 40)} (expected a machine name and a size, or a 1.9x format version)`,
          i + 1,
          'format_version',
        )
      return
    }
    out.push(parseLine(line, i + 1))
  })
  if (out.length === 0)
    throw new ImportError(
      'no bonnie++ CSV line (run bonnie++ with -q, or keep the last line of its output)',
      Math.max(1, lines.length),
    )
  return out
}

function parseLine(line: string, n: number): BonnieRecord {
  const f = line.split(',')
  const L = layoutOf(f[0])
  const modern = L.format !== '1.03'
  if (f.length < L.minFields)
    throw new ImportError(
      `only ${f.length} fields: a ${L.format} line has at least ${L.minFields} (was it cut short?)`,
      n,
      `${columnNames(L)[f.length] ?? 'extra'} (column ${f.length + 1})`,
    )
  const field = (k: number): string => (f[k] ?? '').trim()
  const columns = columnNames(L)
  const name = (k: number): string => `${columns[k] ?? 'extra'} (column ${k + 1})`
  const int = (k: number, what: string, optional = true): number | null => {
    const s = field(k)
    if (s === '' && optional) return null
    if (!/^\d+$/.test(s))
      throw new ImportError(`${what}: expected a whole number, got ${quote(s)}`, n, name(k))
    return checkFigure('count', Number(s), n, name(k), s)
  }
  const measure = (test: BonnieTest, rateAt: number, latencyAt: number): BonnieMeasure => {
    const rate = field(rateAt)
    const cpu = field(rateAt + 1)
    const tooFast = /^\++$/.test(rate)
    let r: number | null = null
    if (!tooFast && rate !== '') {
      if (!/^\d+(\.\d+)?$/.test(rate))
        throw new ImportError(`${test} rate: expected a number or +++++, got ${quote(rate)}`, n, name(rateAt))
      r = Number(rate)
      // the block tests print K/sec (1024 bytes), seeks and the file tests operations per second
      if (KB_RATE_TESTS.has(test)) checkFigure('throughput', r * 1024, n, name(rateAt), `${rate} K/sec`)
      else checkFigure('iops', r, n, name(rateAt), `${rate} /sec`)
    }
    let c: number | null = null
    if (cpu !== '' && !/^\++$/.test(cpu)) {
      if (!/^\d+(\.\d+)?$/.test(cpu))
        throw new ImportError(
          `${test} %CPU: expected a number or +++, got ${quote(cpu)}`,
          n,
          name(rateAt + 1),
        )
      c = Number(cpu)
    }
    return { rate: r, tooFast, cpuPercent: c, latencyMs: latencyAt < 0 ? null : latency(latencyAt) }
  }
  const latency = (k: number): number | null => {
    const s = field(k)
    if (s === '' || /^\++$/.test(s)) return null
    const m = /^(\d+(?:\.\d+)?)(ns|us|ms|s)$/.exec(s)
    if (!m)
      throw new ImportError(
        `latency: expected a number with us, ms or s (like 82470us), got ${quote(s)}`,
        n,
        name(k),
      )
    const v = Number(m[1])
    const ms = m[2] === 'ns' ? v / 1e6 : m[2] === 'us' ? v / 1e3 : m[2] === 's' ? v * 1e3 : v
    checkFigure('time', ms / 1e3, n, name(k), s)
    return ms
  }
  const size = modern ? field(5) : field(1)
  const sm = /^(\d+(?:\.\d+)?)([KMGT]?)$/i.exec(size)
  if (!sm)
    throw new ImportError(
      `file size: expected a size like 2G or 300M, got ${quote(size)}`,
      n,
      name(modern ? 5 : 1),
    )
  const sizeBytes = checkFigure(
    'bytes',
    Math.round(Number(sm[1]) * SIZE_UNITS[sm[2].toUpperCase()]),
    n,
    name(modern ? 5 : 1),
    size,
  )
  let chunkBytes: number | null = null
  if (modern && field(6) !== '') {
    const cm = /^(\d+)([kmg]?)$/i.exec(field(6))
    if (!cm) throw new ImportError(`chunk size: expected a size, got ${quote(field(6))}`, n, name(6))
    chunkBytes = checkFigure(
      'bytes',
      Number(cm[1]) * (cm[2] === '' ? 1 : SIZE_UNITS[cm[2].toUpperCase()]),
      n,
      name(6),
      field(6),
    )
  }
  // 1.03's file count may be "16" or "16:max:min/dirs"
  const filesField = field(L.files)
  let files: number | null = null
  if (filesField !== '') {
    const fm = /^(\d+)(?::\d+(?::\d+)?(?:\/\d+)?)?$/.exec(filesField)
    if (!fm)
      throw new ImportError(
        `number of files: expected a number (×1024), got ${quote(filesField)}`,
        n,
        name(L.files),
      )
    files = checkFigure('count', Number(fm[1]) * 1024, n, name(L.files), filesField) / 1024
  }
  const tests = {} as Record<BonnieTest, BonnieMeasure>
  BONNIE_TESTS.forEach((t, k) => {
    const at = k < 6 ? L.putc + 2 * k : L.create + 2 * (k - 6)
    tests[t] = measure(t, at, L.latency < 0 ? -1 : L.latency + k)
  })
  const shifted = modern && L.putc === 9
  const machine = modern ? field(2) : field(0)
  if (machine === '') throw new ImportError('machine name: empty', n, name(modern ? 2 : 0))
  return {
    line: n,
    format: L.format,
    version: modern ? field(1) : null,
    machine,
    concurrency: modern ? int(3, 'concurrency') : null,
    size,
    sizeBytes,
    chunkBytes,
    seeks: shifted ? int(7, 'seeks') : null,
    seekProcesses: shifted ? int(8, 'seek processes') : null,
    files,
    tests,
  }
}

const PAIRS = (names: readonly string[]): string[] => names.flatMap((t) => [t, `${t}_cpu`])

/** The column names of a layout, as bonnie++ 1.9x's header line and bon_csv2html name them. */
function columnNames(L: Layout): string[] {
  const io = PAIRS(BONNIE_TESTS.slice(0, 6))
  const fileTests = PAIRS(BONNIE_TESTS.slice(6))
  if (L.format === '1.03') return ['name', 'file_size', ...io, 'num_files', ...fileTests]
  return [
    'format_version',
    'bonnie_version',
    'name',
    'concurrency',
    'seed',
    'file_size',
    'io_chunk_size',
    ...(L.putc === 9 ? ['seeks', 'seek_proc_count'] : []),
    ...io,
    'num_files',
    'max_size',
    'min_size',
    'num_dirs',
    'file_chunk_size',
    ...fileTests,
    ...BONNIE_TESTS.map((t) => `${t}_latency`),
  ]
}
