import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFileSync } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { FioOutputError, parseFioOutput, splitJsonDocuments } from '../../src/shared/formats/fio-json'
import { histogramFromBins, processesFromReport } from '../../src/main/services/real/fio-result'
import type { FioJobEntry } from '../../src/main/services/real/fio-job'
import { describeWithFio, tempDir } from './real-env'

/**
 * The parser against fio's real output: fixtures made here by running fio on a file in a temp
 * directory (no root needed), then truncated and damaged copies of them.
 */
describeWithFio('reading fio’s json+ report', () => {
  let dir = ''
  let single = ''
  let concatenated = ''
  let plain = ''
  const job = (extra: string): string =>
    [
      '[global]',
      `filename=${join(dir, 'data')}`,
      'size=8M',
      'thread=1',
      '[writer]',
      'rw=write',
      'bs=64k',
      '[reader]',
      'rw=randread',
      'bs=4k',
      'number_ios=2000',
      extra,
    ].join('\n')
  const run = (name: string, format: string, text: string, extra: string[] = []): string => {
    const f = join(dir, `${name}.fio`)
    const out = join(dir, `${name}.json`)
    writeFileSync(f, text)
    execFileSync('fio', [`--output-format=${format}`, `--output=${out}`, ...extra, f])
    return readFileSync(out, 'utf8')
  }

  beforeAll(() => {
    dir = tempDir('iosched-fio-out-')
    single = run('single', 'json+', job(''))
    // --status-interval appends a cumulative report every interval: concatenated documents
    concatenated = run('status', 'json+', job('time_based=1\nruntime=2200ms'), ['--status-interval=1'])
    plain = run('plain', 'json', job(''))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const plan: FioJobEntry[] = [
    {
      section: 'writer',
      process: 'writer',
      options: [],
      plannedBytes: 8 << 20,
      ownRuntimeMs: 0,
      startSeconds: 0,
      readsOnly: false,
    },
    {
      section: 'reader',
      process: 'reader',
      options: [],
      plannedBytes: 2000 * 4096,
      ownRuntimeMs: 0,
      startSeconds: 0,
      readsOnly: true,
    },
  ]

  it('parses a report into per-process results: bytes, B/s, percentiles from the bins', () => {
    const r = parseFioOutput(single, 'single.json')
    expect(r.fioVersion).toMatch(/^fio-\d/)
    expect(r.documents).toBe(1)
    expect(r.jobs.map((j) => j.jobname)).toEqual(['writer', 'reader'])
    const [w, rd] = processesFromReport(r.jobs, plan, 'single.json')
    const wj = r.jobs[0]
    expect(w.writeBytes).toBe(8 << 20)
    expect(w.finished).toBe(true)
    expect(w.MBps).toBeCloseTo(w.bytes / 1e6 / (wj.job_runtime / 1000), 6)
    // bw_bytes is B/s (bw is KiB/s — reading bw as MB/s is the KDiskMark trap)
    expect(wj.write.bw_bytes).toBeGreaterThan(wj.write.bw * 1000)
    expect(rd.ops).toBe(2000)
    expect(rd.readBytes).toBe(2000 * 4096)
    expect(rd.latency.count).toBe(2000)
    // percentiles from re-bucketed bins stay within the bins' resolution of fio's own
    const fioP50 = r.jobs[1].read.clat_ns.percentile!['50.000000'] / 1e6
    expect(rd.latencyMs.p50 / fioP50).toBeGreaterThan(0.95)
    expect(rd.latencyMs.p50 / fioP50).toBeLessThan(1.05)
    expect(rd.latencyMs.max).toBeCloseTo(r.jobs[1].read.clat_ns.max / 1e6, 9)
    expect(rd.latencyMs.mean).toBeCloseTo(r.jobs[1].read.clat_ns.mean / 1e6, 3)
  })

  it('splits concatenated documents (--status-interval) and takes the last, final one', () => {
    const { docs } = splitJsonDocuments(concatenated)
    expect(docs.length).toBeGreaterThanOrEqual(3)
    const r = parseFioOutput(concatenated, 'status.json')
    expect(r.documents).toBe(docs.length)
    const last = JSON.parse(docs[docs.length - 1].text) as { jobs: { read: { total_ios: number } }[] }
    expect(r.jobs[1].read.total_ios).toBe(last.jobs[1].read.total_ios)
    const first = JSON.parse(docs[0].text) as { jobs: { read: { total_ios: number } }[] }
    expect(r.jobs[1].read.total_ios).toBeGreaterThan(first.jobs[1].read.total_ios)
  })

  it('says "truncated" and where, for output cut anywhere', () => {
    for (const text of [single, concatenated])
      for (const share of [0.02, 0.3, 0.5, 0.9, 0.999]) {
        const cut = text.slice(0, Math.floor(text.length * share))
        const e = catchError(() => parseFioOutput(cut, 'cut.json'))
        expect(e).toBeInstanceOf(FioOutputError)
        expect(e.message).toMatch(
          /^cut\.json: truncated: the JSON document that starts at line \d+ is not closed/,
        )
        expect(e.message).toMatch(/fio was probably stopped before it finished writing/)
      }
  })

  it('names the line and column of malformed JSON', () => {
    const at = single.indexOf('"jobs"')
    const broken = single.slice(0, at) + '"jobs" = ' + single.slice(at + '"jobs" :'.length)
    const e = catchError(() => parseFioOutput(broken, 'broken.json'))
    expect(e.message).toMatch(/^broken\.json: malformed JSON in document 1 of 1 at line \d+, column \d+/)
  })

  it('names the missing or wrong field', () => {
    const doc = JSON.parse(single) as { jobs: Record<string, Record<string, unknown>>[] }
    delete doc.jobs[1].read.bw_bytes
    expect(catchError(() => parseFioOutput(JSON.stringify(doc), 'x.json')).message).toBe(
      'x.json: the report: jobs[1].read.bw_bytes: expected a number, got missing',
    )
    const notFio = catchError(() => parseFioOutput('{"jobs": []}', 'y.json'))
    expect(notFio.message).toContain('"fio version": expected fio\'s version string, got missing')
    expect(catchError(() => parseFioOutput('', 'z.json')).message).toBe(
      'z.json: is empty: fio wrote no report (did it fail to start?)',
    )
    expect(
      catchError(() => parseFioOutput('fio: pid=1, err=2/file:filesetup.c', 'w.json')).message,
    ).toContain('holds no JSON document')
  })

  it('asks for json+ when the report has no latency bins', () => {
    const r = parseFioOutput(plain, 'plain.json')
    expect(catchError(() => processesFromReport(r.jobs, plan, 'plain.json')).message).toContain(
      'no clat_ns.bins (the latency histogram): the report is plain JSON — run fio with --output-format=json+',
    )
  })

  it('merges the bins of both directions into one histogram with fio’s exact extremes', () => {
    const h = histogramFromBins(
      [
        { min: 900, max: 5000, mean: 2000, stddev: 0, N: 3, bins: { '1000': 2, '4992': 1 } },
        { min: 0, max: 0, mean: 0, stddev: 0, N: 0 },
        { min: 100, max: 100, mean: 100, stddev: 0, N: 1, bins: { '100': 1 } },
      ],
      'test',
    )
    expect(h.count).toBe(4)
    expect(h.min).toBe(100)
    expect(h.max).toBe(5000)
    expect(h.sum).toBe(6100)
  })
})

function catchError(f: () => unknown): Error {
  try {
    f()
  } catch (e) {
    return e as Error
  }
  throw new Error('expected an error')
}

describe('the JSON splitter', () => {
  it('keeps braces inside strings and collects fio’s messages between documents', () => {
    const { docs, stray } = splitJsonDocuments(
      'fio: note\n{"a":"}{\\"x"}\n{"b":[1,{"c":2}]}\ntrailing words\n',
    )
    expect(docs.map((d) => JSON.parse(d.text))).toEqual([{ a: '}{"x' }, { b: [1, { c: 2 }] }])
    expect(stray).toEqual(['fio: note', 'trailing words'])
  })
})
