import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { FioOutputError, locateJsonPath, jsonPathSegments } from '../../src/shared/formats/fio-json'
import { ImportError } from '../../src/shared/formats/import-error'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'
import { importText } from '../../src/shared/import/import-text'
import { FIO_MINI } from './fixtures'
import { describeWithTools, scratchDir, thrown } from './tools'

describe('fio JSON import', () => {
  it('makes each job a process: io_bytes, bw_bytes (B/s), job_runtime; json+ bins as the histogram', () => {
    const f = importText(FIO_MINI, 'mini.json')
    expect(f).toMatchObject({ format: 'fio-json', tool: 'fio', version: '3.33' })
    const [{ run, metrics }] = f.runs
    expect(run.device).toBe('sda')
    expect(run.processes.map((p) => p.name)).toEqual(['reader', 'writer'])
    const r = run.processes[0]
    expect(r).toMatchObject({ readBytes: 8 << 20, writeBytes: 0, seconds: 2, ops: 2048 })
    expect(r.cpuSeconds).toBeCloseTo(0.1, 9)
    expect(r.latency.count).toBe(2048)
    expect(r.latency.min).toBe(100000)
    expect(r.latency.max).toBe(900000)
    expect(r.latencyMs.max).toBe(0.9)
    expect(r.latencyMs.p50).toBeCloseTo(0.1, 2)
    expect(LatencyHistogram.fromJSON(r.latency).count).toBe(2048)
    expect(run.totals.readMBps).toBeCloseTo((8 << 20) / 2 / 1e6, 9)
    expect(run.totals.utilisation).toBeCloseTo(0.975, 9)
    expect(run.totals.requests).toBe(3072)
    expect(metrics.find((m) => m.name === 'reader read bw (fio)')).toEqual({
      name: 'reader read bw (fio)',
      value: (8 << 20) / 2 / 1024,
      unit: 'KiB/s',
    })
  })

  it('names the line and the JSON path of a bad field', () => {
    const bad = FIO_MINI.replace('"total_ios": 1024', '"total_ios": "many"')
    const e = thrown(() => importText(bad, 'bad.json')) as ImportError
    expect(e).toBeInstanceOf(FioOutputError)
    expect(e).toBeInstanceOf(ImportError)
    expect(e.field).toBe('jobs[1].write.total_ios')
    expect(bad.split('\n')[e.line - 1]).toContain('"total_ios": "many"')
    expect(e.describe()).toBe(
      `bad.json: line ${e.line}, field jobs[1].write.total_ios: the report: expected a number, got "many"`,
    )
    // a missing field points at its object
    const doc = JSON.parse(FIO_MINI)
    delete doc.jobs[0].read.bw_bytes
    const text = JSON.stringify(doc, null, 1)
    const m = thrown(() => importText(text, 'm.json')) as ImportError
    expect(text.split('\n')[m.line - 1]).toContain('"read"')
  })

  it('locates JSON paths, escapes and all', () => {
    const doc = '{"a": [1, {"b\\"c": {"d": 2}}], "x": "}"}'
    expect(jsonPathSegments('a[1]["b\\"c"].d')).toEqual(['a', 1, 'b"c', 'd'])
    expect(doc.slice(locateJsonPath(doc, jsonPathSegments('a[1]["b\\"c"].d')))).toBe('2}}], "x": "}"}')
    expect(doc.slice(locateJsonPath(doc, ['x']))).toBe('"}"}')
    expect(locateJsonPath(doc, ['nope'])).toBe(0)
  })
})

describeWithTools(['fio'], 'fio JSON import from real fio runs', () => {
  const scratch = scratchDir('iosched-fio-import-')
  const out: Record<string, string> = {}
  const run = (name: string, format: string, job: string, extra: string[] = []): string => {
    const f = join(scratch.dir, `${name}.fio`)
    const o = join(scratch.dir, `${name}.json`)
    writeFileSync(f, job)
    execFileSync('fio', [`--output-format=${format}`, `--output=${o}`, ...extra, f], { stdio: 'ignore' })
    return readFileSync(o, 'utf8')
  }
  beforeAll(() => {
    const job = (extra: string): string =>
      [
        '[global]',
        `filename=${join(scratch.dir, 'data')}`,
        'size=4M',
        'thread=1',
        '[writer]',
        'rw=write',
        'bs=64k',
        '[reader]',
        'rw=randread',
        'bs=4k',
        'number_ios=1000',
        extra,
      ].join('\n')
    out.plus = run('plus', 'json+', job(''))
    out.plain = run('plain', 'json', job(''))
    out.status = run('status', 'json+', job('time_based=1\nruntime=2200ms'), ['--status-interval=1'])
    out.many = run(
      'many',
      'json+',
      [
        '[global]',
        `directory=${scratch.dir}`,
        'size=1M',
        'thread=1',
        '[rr]',
        'rw=randread',
        'bs=4k',
        'numjobs=2',
      ].join('\n'),
    )
  }, 60_000)
  afterAll(() => scratch.remove())

  it('reads json+: one process per job, the histogram from the bins matching fio’s counts', () => {
    const doc = JSON.parse(out.plus) as { jobs: { read: { total_ios: number; clat_ns: { max: number } } }[] }
    const [{ run }] = importText(out.plus, 'plus.json').runs
    expect(run.processes.map((p) => p.name)).toEqual(['writer', 'reader'])
    expect(run.processes[1].latency.count).toBe(doc.jobs[1].read.total_ios)
    expect(run.processes[1].latencyMs.max).toBeCloseTo(doc.jobs[1].read.clat_ns.max / 1e6, 9)
    expect(run.processes[0].writeBytes).toBe(4 << 20)
  })

  it('reads plain JSON: fio’s percentiles, no histogram, and a note', () => {
    const [{ run }] = importText(out.plain, 'plain.json').runs
    expect(run.processes[1].latency.count).toBe(0)
    expect(run.processes[1].latencyMs.p50).toBeGreaterThan(0)
    expect(run.imported!.notes!.join(' ')).toContain('plain JSON')
  })

  it('splits --status-interval documents: the final report, and throughput over time', () => {
    const [{ run }] = importText(out.status, 'status.json').runs
    expect(run.timeSeries.tMs.length).toBeGreaterThanOrEqual(2)
    expect(run.timeSeries.readMBps.some((x) => x > 0)).toBe(true)
    expect(run.imported!.notes!.join(' ')).toMatch(/\d+ reports \(--status-interval\)/)
  })

  it('names repeated jobs as instances', () => {
    const [{ run }] = importText(out.many, 'many.json').runs
    expect(run.processes.map((p) => p.name)).toEqual(['rr/0', 'rr/1'])
  })

  it('says where a report was cut', () => {
    const cut = out.plus.slice(0, Math.floor(out.plus.length / 2))
    const e = thrown(() => importText(cut, 'cut.json')) as ImportError
    expect(e).toBeInstanceOf(ImportError)
    expect(e.describe()).toMatch(
      /^cut\.json: line \d+: truncated: the JSON document that starts at line 1 is not closed/,
    )
  })
})
