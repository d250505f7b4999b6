import { checkFigure } from './figure-bounds'
import { ImportError, quote, splitLines } from './import-error'

/**
 * iozone's text report: the table of results per file size and record size, one column per test.
 * Its header has two lines — the lower one names the tests (`kB reclen write rewrite read reread
 * read write read rewrite read fwrite frewrite fread freread`), the upper one holds the prefixes
 * `random random bkwd record stride` above the columns they qualify — and a row prints only the
 * tests that ran, leaving the others blank. So values are matched to columns by character
 * position (numbers are right-aligned under their column name), never by their order in the row.
 * Values are kB/s (kB = 1024 bytes), or operations/s with `-O`, or µs per operation with `-N`.
 * A file may hold several reports (several iozone runs); each is returned.
 */
export interface IozoneReport {
  /** 1-based line of the lower header line. */
  line: number
  /** `3.492` from `Version $Revision: 3.492 $`, when present. */
  version: string | null
  command: string | null
  unit: 'kB/s' | 'ops/s' | 'us/op'
  /** Column names in the header's order, prefixes joined (`random read`), without kB and reclen. */
  tests: string[]
  rows: IozoneRow[]
}

export interface IozoneRow {
  line: number
  /** File size and record size in kB (1024 bytes). */
  fileKB: number
  recordKB: number
  /** Test → value in the report's unit; tests that did not run are absent. */
  values: Record<string, number>
}

interface Token {
  text: string
  start: number
  end: number
}

const tokens = (line: string): Token[] =>
  [...line.matchAll(/\S+/g)].map((m) => ({ text: m[0], start: m.index, end: m.index + m[0].length }))

/** Tabs expanded to 8 columns, as a terminal shows them (positions are what matter here). */
function expandTabs(line: string): string {
  if (!line.includes('\t')) return line
  let out = ''
  for (const ch of line) out += ch === '\t' ? ' '.repeat(8 - (out.length % 8)) : ch
  return out
}

const LOWER = /^\s*(kB|KB|Kb|kb)\s+reclen\b/
const PREFIXES = new Set(['random', 'bkwd', 'record', 'stride'])
/** How far (in characters) a value's right edge may sit from its column name's right edge. */
const SLACK = 2

/** True when the text holds an iozone results header (for format detection). */
export const hasIozoneHeader = (text: string): boolean =>
  splitLines(text).some((l) => LOWER.test(l) && /\bwrite\b/.test(l))

export function parseIozone(text: string): IozoneReport[] {
  const lines = splitLines(text).map(expandTabs)
  const reports: IozoneReport[] = []
  let version: string | null = null
  let command: string | null = null
  let unit: IozoneReport['unit'] = 'kB/s'
  let i = 0
  while (i < lines.length) {
    const line = lines[i]
    const v = /Version \$Revision: ([\w.]+) \$/.exec(line)
    if (v) version = v[1]
    const c = /Command line used: (.*)$/.exec(line)
    if (c) command = c[1].trim()
    if (/Output is in/i.test(line)) unit = unitOf(line, i + 1)
    if (!LOWER.test(line)) {
      i++
      continue
    }
    const upper = i > 0 && tokens(lines[i - 1]).some((t) => PREFIXES.has(t.text)) ? lines[i - 1] : ''
    const columns = headerColumns(line, upper, i + 1)
    const report: IozoneReport = {
      line: i + 1,
      version,
      command,
      unit,
      tests: columns.slice(2).map((c) => c.name),
      rows: [],
    }
    i++
    for (; i < lines.length; i++) {
      const row = lines[i]
      if (row.trim() === '') continue
      if (!/^\s*\d/.test(row)) break
      report.rows.push(dataRow(row, columns, i + 1, unit))
    }
    if (report.rows.length === 0)
      throw new ImportError('the results header is followed by no row of numbers', report.line)
    reports.push(report)
  }
  if (reports.length === 0)
    throw new ImportError(
      'no iozone results table (a header line "kB  reclen  write  rewrite …" followed by rows of numbers)',
      Math.max(1, lines.length),
    )
  return reports
}

function unitOf(line: string, n: number): IozoneReport['unit'] {
  if (/kbytes\/sec/i.test(line)) return 'kB/s'
  if (/operations per second/i.test(line)) return 'ops/s'
  if (/microseconds per op/i.test(line)) return 'us/op'
  throw new ImportError(`unknown unit: ${quote(line.trim())}`, n, 'Output is in')
}

interface Column {
  name: string
  start: number
  end: number
}

function headerColumns(lower: string, upper: string, n: number): Column[] {
  const cols: Column[] = tokens(lower).map((t) => ({ name: t.text, start: t.start, end: t.end }))
  cols[0].name = 'kB'
  for (const p of tokens(upper)) {
    if (!PREFIXES.has(p.text)) continue
    // a prefix stands right-aligned over its column, like the numbers
    let best = -1
    for (let k = 2; k < cols.length; k++)
      if (best < 0 || Math.abs(cols[k].end - p.end) < Math.abs(cols[best].end - p.end)) best = k
    if (best < 0 || Math.abs(cols[best].end - p.end) > SLACK)
      throw new ImportError(
        `the prefix "${p.text}" at column ${p.start + 1} of the upper header stands over no test`,
        n - 1,
        p.text,
      )
    cols[best].name = `${p.text} ${cols[best].name}`
  }
  const seen = new Set<string>()
  for (const c of cols) {
    if (seen.has(c.name))
      throw new ImportError(
        `two columns named "${c.name}" (is the upper header line with "random … stride" missing?)`,
        n,
        c.name,
      )
    seen.add(c.name)
  }
  return cols
}

/** Each test's value as a figure: a rate in kB/s (1024 bytes), operations per second, or µs per operation. */
function checkValue(v: number, unit: IozoneReport['unit'], n: number, field: string, printed: string): void {
  if (unit === 'kB/s') checkFigure('throughput', v * 1024, n, field, `${printed} kB/s`)
  else if (unit === 'ops/s') checkFigure('iops', v, n, field, `${printed} ops/s`)
  else checkFigure('time', v / 1e6, n, field, `${printed} µs/op`)
}

function dataRow(row: string, cols: Column[], n: number, unit: IozoneReport['unit']): IozoneRow {
  const values: Record<string, number> = {}
  for (const t of tokens(row)) {
    let best = 0
    for (let k = 1; k < cols.length; k++)
      if (Math.abs(cols[k].end - t.end) < Math.abs(cols[best].end - t.end)) best = k
    const col = cols[best]
    if (Math.abs(col.end - t.end) > SLACK)
      throw new ImportError(
        `the value ${quote(t.text)} at column ${t.start + 1} lines up with no column of the header`,
        n,
        `column ${t.start + 1}`,
      )
    if (col.name in values) throw new ImportError(`two values under "${col.name}"`, n, col.name)
    const v = Number(t.text)
    if (!Number.isFinite(v) || !/^\d+(\.\d+)?$/.test(t.text))
      throw new ImportError(`expected a number, got ${quote(t.text)}`, n, col.name)
    if (col.name === 'kB' || col.name === 'reclen')
      checkFigure('bytes', v * 1024, n, col.name, `${t.text} kB`)
    else checkValue(v, unit, n, col.name, t.text)
    values[col.name] = v
  }
  const fileKB = values.kB
  const recordKB = values.reclen
  if (fileKB === undefined) throw new ImportError('no file size under "kB"', n, 'kB')
  if (recordKB === undefined) throw new ImportError('no record size under "reclen"', n, 'reclen')
  if (!(recordKB > 0)) throw new ImportError('record size 0', n, 'reclen')
  delete values.kB
  delete values.reclen
  return { line: n, fileKB, recordKB, values }
}
