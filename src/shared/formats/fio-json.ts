import type { FigureKind } from './figure-bounds'
import { figureProblem } from './figure-bounds'
import { ImportError } from './import-error'
import { LineIndex } from './line-index'
import { jsonPathSegments, locateJsonPath } from '../util/json-text'

export { jsonPathSegments, locateJsonPath } from '../util/json-text'

/**
 * Reading fio's JSON / json+ report: split concatenated documents (`--status-interval` appends one
 * per interval; the last is the final report), parse with positions, and check the fields the lab
 * uses — every problem names the file, the document and the field, and carries the line.
 * Pure: used by the real-device engine (src/main/services/real) and by the importer.
 */

/** A latency block (`clat_ns`, `lat_ns`, `slat_ns`); json+ adds `bins`: bucket value (ns) → count. */
export interface FioLatency {
  min: number
  max: number
  mean: number
  stddev: number
  N: number
  percentile?: Record<string, number>
  bins?: Record<string, number>
}

/** One direction of a job: bytes, **bw_bytes in B/s** (`bw` is KiB/s), IOPS, latencies. */
export interface FioDirection {
  io_bytes: number
  bw_bytes: number
  /** KiB/s — not MB/s; the lab uses bw_bytes. */
  bw: number
  iops: number
  /** ms */
  runtime: number
  total_ios: number
  clat_ns: FioLatency
  lat_ns?: FioLatency
  slat_ns?: FioLatency
}

export interface FioJobReport {
  jobname: string
  groupid: number
  error: number
  /** Seconds since the job was set up. */
  elapsed: number
  /** ms of I/O. */
  job_runtime: number
  usr_cpu: number
  sys_cpu: number
  'job options': Record<string, string>
  read: FioDirection
  write: FioDirection
  trim: FioDirection
  /** Client/server mode: the host that ran it. */
  hostname?: string
  /** Client/server mode: the port of the server that ran it. */
  port?: number
}

export interface FioDiskUtil {
  name: string
  read_ios: number
  write_ios: number
  read_merges: number
  write_merges: number
  read_ticks: number
  write_ticks: number
  in_queue: number
  util: number
}

export interface FioReport {
  fioVersion: string
  /** Unix seconds. */
  timestamp: number
  /** Unix ms when fio wrote the report (just after the last job ended), or null. */
  timestampMs: number | null
  jobs: FioJobReport[]
  diskUtil: FioDiskUtil[]
  /** How many JSON documents the output held (1 unless --status-interval). */
  documents: number
  /** Text outside the JSON (fio's own messages), line by line. */
  messages: string[]
}

/**
 * The output is not a usable fio report; the message says where and what (`source: detail`). As
 * an ImportError it also carries the line and the field (a JSON path) for the importer.
 */
export class FioOutputError extends ImportError {
  constructor(
    readonly source: string,
    detail: string,
    position: { line: number; field?: string | null; problem?: string } = { line: 1 },
  ) {
    super(position.problem ?? detail, position.line, position.field ?? null)
    this.message = `${source}: ${detail}`
    this.name = 'FioOutputError'
  }
}

interface Piece {
  text: string
  start: number
}

/** Split text into top-level JSON values by bracket depth (strings and escapes respected). */
export function splitJsonDocuments(text: string, source = 'fio output'): { docs: Piece[]; stray: string[] } {
  const docs: Piece[] = []
  const strayChars: string[] = []
  let depth = 0
  let start = -1
  let inString = false
  let escaped = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (depth === 0) {
      if (ch === '{' || ch === '[') {
        depth = 1
        start = i
      } else strayChars.push(ch)
      continue
    }
    if (inString) {
      if (escaped) escaped = false
      else if (ch === '\\') escaped = true
      else if (ch === '"') inString = false
      continue
    }
    if (ch === '"') inString = true
    else if (ch === '{' || ch === '[') depth++
    else if (ch === '}' || ch === ']') {
      depth--
      if (depth === 0) {
        docs.push({ text: text.slice(start, i + 1), start })
        strayChars.push('\n')
      }
    }
  }
  if (depth > 0) {
    const lines = new LineIndex(text)
    const s = lines.at(start)
    const e = lines.at(text.length)
    throw new FioOutputError(
      source,
      `truncated: the JSON document that starts at line ${s.line} is not closed — the output ends at line ${e.line} ` +
        `${inString ? 'inside a string' : `${depth} level(s) deep`} (${text.length} bytes). fio was probably stopped ` +
        'before it finished writing its report',
      { line: e.line },
    )
  }
  const stray = strayChars
    .join('')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
  return { docs, stray }
}

/** Parse fio's --output-format=json / json+ output; returns the final report (the last document). */
export function parseFioOutput(text: string, source = 'fio output'): FioReport {
  const all = parseFioDocuments(text, source, { onlyLast: true })
  return all.reports[all.reports.length - 1]
}

/** Every document of the output, each checked: the cumulative reports of `--status-interval`, then the final one. */
export interface FioDocuments {
  /** In output order; the last is the final report. */
  reports: FioReport[]
  /** 1-based line where each report starts. */
  lines: number[]
}

/**
 * Parse every JSON document of fio's output (one, or one per `--status-interval` and the final
 * report), checking each as `parseFioOutput` checks the final one. `onlyLast` checks the last only.
 */
export function parseFioDocuments(
  text: string,
  source = 'fio output',
  options: { onlyLast?: boolean } = {},
): FioDocuments {
  if (text.trim() === '')
    throw new FioOutputError(source, 'is empty: fio wrote no report (did it fail to start?)', {
      line: 1,
      problem: 'empty: fio wrote no report (did it fail to start?)',
    })
  const { docs, stray } = splitJsonDocuments(text, source)
  if (docs.length === 0)
    throw new FioOutputError(
      source,
      `holds no JSON document (was fio run with --output-format=json+?); it reads: "${stray.slice(0, 3).join(' / ').slice(0, 300)}"`,
    )
  // built once: every position below is a lookup in it, not a scan from the start of the text
  const lineIndex = new LineIndex(text)
  const parsed = docs.map((d, k) => {
    try {
      return JSON.parse(d.text) as unknown
    } catch (e) {
      const msg = (e as Error).message
      const m = /position (\d+)/.exec(msg)
      const where = lineIndex.at(d.start + (m ? Number(m[1]) : 0))
      const clean = msg.replace(/ in JSON at position \d+.*$/, '').replace(/^JSON\.parse: /, '')
      const problem = `malformed JSON in document ${k + 1} of ${docs.length} at column ${where.col}: ${clean}`
      throw new FioOutputError(
        source,
        `malformed JSON in document ${k + 1} of ${docs.length} at line ${where.line}, column ${where.col}: ${clean}`,
        { line: where.line, problem },
      )
    }
  })
  const reports: FioReport[] = []
  const lines: number[] = []
  parsed.forEach((doc, k) => {
    if (options.onlyLast && k < parsed.length - 1) return
    const where =
      docs.length === 1
        ? 'the report'
        : k === docs.length - 1
          ? `document ${docs.length} of ${docs.length} (the final report)`
          : `document ${k + 1} of ${docs.length}`
    const fail: Fail = (path, what) => {
      const at = locateJsonPath(docs[k].text, jsonPathSegments(path))
      throw new FioOutputError(source, `${where}: ${path}: ${what}`, {
        line: lineIndex.lineOf(docs[k].start + at),
        field: path,
        problem: `${where}: ${what}`,
      })
    }
    reports.push(checkReport(doc, fail, docs.length, stray))
    lines.push(lineIndex.lineOf(docs[k].start))
  })
  return { reports, lines }
}

type Fail = (path: string, what: string) => never

const describe = (v: unknown): string =>
  v === undefined
    ? 'missing'
    : v === null
      ? 'null'
      : Array.isArray(v)
        ? 'an array'
        : typeof v === 'object'
          ? 'an object'
          : typeof v === 'number' && !Number.isFinite(v)
            ? `${v} (a number too large to hold)`
            : JSON.stringify(v)

function num(o: Record<string, unknown>, k: string, path: string, fail: Fail): number {
  const v = o[k]
  if (typeof v !== 'number' || !Number.isFinite(v))
    fail(`${path}.${k}`, `expected a number, got ${describe(v)}`)
  return v as number
}

/** A number that must be a measured figure: `scale` turns fio's unit into the bound's (ms → s). */
function figure(
  o: Record<string, unknown>,
  k: string,
  path: string,
  kind: FigureKind,
  fail: Fail,
  scale = 1,
): number {
  const v = num(o, k, path, fail)
  const p = figureProblem(kind, v * scale, String(v))
  if (p !== null) fail(`${path}.${k}`, p)
  return v
}

function obj(v: unknown, path: string, fail: Fail): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    fail(path, `expected an object, got ${describe(v)}`)
  return v as Record<string, unknown>
}

function checkLatency(v: unknown, path: string, fail: Fail): FioLatency {
  const o = obj(v, path, fail)
  for (const k of ['min', 'max', 'mean']) figure(o, k, path, 'time', fail, 1e-9)
  figure(o, 'N', path, 'count', fail)
  if (o.bins !== undefined) {
    const b = obj(o.bins, `${path}.bins`, fail)
    for (const [k, c] of Object.entries(b))
      if (!Number.isFinite(Number(k)) || typeof c !== 'number' || c < 0)
        fail(`${path}.bins["${k}"]`, `expected a bucket value in ns and a count, got ${describe(c)}`)
  }
  return o as unknown as FioLatency
}

function checkDirection(v: unknown, path: string, fail: Fail): FioDirection {
  const o = obj(v, path, fail)
  const bytes = figure(o, 'io_bytes', path, 'bytes', fail)
  figure(o, 'bw_bytes', path, 'throughput', fail)
  figure(o, 'iops', path, 'iops', fail)
  const ms = figure(o, 'runtime', path, 'time', fail, 1e-3)
  figure(o, 'total_ios', path, 'count', fail)
  // the bytes in the time: what bw_bytes should have said
  const p = ms > 0 ? figureProblem('throughput', bytes / (ms / 1000), `${bytes} bytes in ${ms} ms`) : null
  if (p !== null) fail(`${path}.runtime`, p)
  checkLatency(o.clat_ns, `${path}.clat_ns`, fail)
  return o as unknown as FioDirection
}

function checkReport(doc: unknown, fail: Fail, documents: number, messages: string[]): FioReport {
  const top = obj(doc, '(top level)', fail)
  const version = top['fio version']
  if (typeof version !== 'string')
    fail('"fio version"', `expected fio's version string, got ${describe(version)} — is this a fio report?`)
  // client/server mode (--client) reports per host under client_stats, the totals last
  const jobsKey = Array.isArray(top.jobs) ? 'jobs' : Array.isArray(top.client_stats) ? 'client_stats' : null
  if (jobsKey === null) fail('jobs', `expected the array of jobs, got ${describe(top.jobs)}`)
  const list = top[jobsKey!] as unknown[]
  const jobs: FioJobReport[] = []
  list.forEach((j, i) => {
    const path = `${jobsKey}[${i}]`
    const o = obj(j, path, fail)
    if (typeof o.jobname !== 'string')
      fail(`${path}.jobname`, `expected a string, got ${describe(o.jobname)}`)
    // client_stats ends with an "All clients" aggregate; the per-host entries are what we compare
    if (jobsKey === 'client_stats' && o.jobname === 'All clients') return
    for (const k of ['error', 'usr_cpu', 'sys_cpu']) num(o, k, path, fail)
    figure(o, 'job_runtime', path, 'time', fail, 1e-3)
    for (const d of ['read', 'write', 'trim']) checkDirection(o[d], `${path}.${d}`, fail)
    jobs.push(o as unknown as FioJobReport)
  })
  if (jobs.length === 0) fail(jobsKey!, 'no jobs in the report')
  const du = Array.isArray(top.disk_util) ? (top.disk_util as FioDiskUtil[]) : []
  return {
    fioVersion: version as string,
    timestamp: typeof top.timestamp === 'number' ? top.timestamp : 0,
    timestampMs: typeof top.timestamp_ms === 'number' ? top.timestamp_ms : null,
    jobs,
    diskUtil: du,
    documents,
    messages,
  }
}
