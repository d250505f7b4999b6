import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFileSync } from 'node:child_process'
import { parseBonnieCsv } from '../../src/shared/formats/bonnie-csv'
import { ImportError } from '../../src/shared/formats/import-error'
import { importText } from '../../src/shared/import/import-text'
import { BONNIE_103, BONNIE_197, BONNIE_198 } from './fixtures'
import { describeWithTools, scratchDir, thrown } from './tools'

describe('bonnie++ CSV', () => {
  it('reads 1.03 lines: machine and size first, rates in K/s, +++++ as null', () => {
    const [a, b] = parseBonnieCsv(BONNIE_103)
    expect(a).toMatchObject({
      line: 5,
      format: '1.03',
      version: null,
      machine: 'ide2003',
      size: '496M',
      files: 16,
    })
    expect(a.sizeBytes).toBe(496 * 2 ** 20)
    expect(a.tests.put_block).toEqual({ rate: 25497, tooFast: false, cpuPercent: 15, latencyMs: null })
    expect(a.tests.seeks.rate).toBe(202.5)
    expect(a.tests.seq_stat).toEqual({ rate: null, tooFast: true, cpuPercent: null, latencyMs: null })
    expect(a.tests.ran_del.rate).toBe(3737)
    expect(b.line).toBe(6)
  })

  it('reads 1.97 lines: no seeks fields, latencies in us, ms and s', () => {
    const [r] = parseBonnieCsv(BONNIE_197)
    expect(r).toMatchObject({ format: '1.97', version: '1.97', machine: 'lab', seeks: null, files: 16 })
    expect(r.tests.putc.rate).toBe(100)
    expect(r.tests.get_block.rate).toBe(61298)
    expect(r.tests.seeks.rate).toBe(170.2)
    expect(r.tests.putc.latencyMs).toBeCloseTo(82.47, 9)
    expect(r.tests.put_block.latencyMs).toBe(1178)
    expect(r.tests.ran_stat.latencyMs).toBeCloseTo(0.032, 9)
    expect(r.tests.seq_create.rate).toBeNull()
  })

  it('reads 1.98 lines by their version: seeks and seek_proc_count shift every later field', () => {
    const [r] = parseBonnieCsv(BONNIE_198)
    expect(r).toMatchObject({ format: '1.98', version: '2.00a', seeks: 8192, seekProcesses: 5, size: '2G' })
    expect(r.tests.putc).toMatchObject({ rate: 298, cpuPercent: 49 })
    expect(r.tests.put_block.rate).toBe(51234)
    expect(r.tests.seeks.rate).toBe(250.5)
    expect(r.tests.ran_del.latencyMs).toBe(1000)
  })

  it('makes one run per line, the tests as phases of one process; +++++ is no phase and a note', () => {
    const f = importText(BONNIE_103, 'disk-a.csv')
    expect(f.format).toBe('bonnie-csv')
    expect(f.runs.map((r) => r.run.repetition)).toEqual([0, 1])
    const { run, metrics } = f.runs[0]
    expect(run).toMatchObject({
      source: 'real',
      label: 'disk-a',
      imported: { tool: 'bonnie++', version: '1.03' },
    })
    const p = run.processes[0]
    expect(p.phases!.map((x) => x.name)).toEqual([
      'putc',
      'put_block',
      'rewrite',
      'getc',
      'get_block',
      'seeks',
      'seq_create',
      'ran_create',
      'ran_del',
    ])
    const block = p.phases!.find((x) => x.name === 'put_block')!
    expect(block.bytes / 1024 / block.seconds).toBeCloseTo(25497, 6)
    expect(block.cpuSeconds).toBeCloseTo(0.15 * block.seconds, 9)
    expect(metrics.find((m) => m.name === 'seq_stat')).toEqual({ name: 'seq_stat', value: null, unit: '/s' })
    expect(run.imported!.notes!.join('\n')).toContain('seq_stat: +++++ (too fast to measure)')
  })

  it('names the line and the field of a malformed value', () => {
    const bad = BONNIE_197.replace('39548,10', '39548,1x0')
    const e = thrown(() => parseBonnieCsv(`\n${bad}`)) as ImportError
    expect(e).toBeInstanceOf(ImportError)
    expect(e.line).toBe(2)
    expect(e.field).toBe('put_block_cpu (column 11)')
    expect(e.message).toBe(
      'line 2, field put_block_cpu (column 11): put_block %CPU: expected a number or +++, got "1x0"',
    )
    expect(
      (thrown(() => parseBonnieCsv(BONNIE_197.replace('82470us', '82470 parsecs'))) as ImportError).field,
    ).toBe('putc_latency (column 37)')
    expect(thrown(() => parseBonnieCsv('1.97,1.97,lab,1,1,4G,,100,97,39548')).message).toMatch(
      /^line 1, field .*only 10 fields/,
    )
    expect(thrown(() => parseBonnieCsv('just words\n')).message).toMatch(/^line 2: no bonnie\+\+ CSV line/)
  })
})

describeWithTools(['bonnie++'], 'bonnie++ CSV from a real bonnie++ run', () => {
  const scratch = scratchDir('iosched-bonnie-')
  const asRoot = process.getuid?.() === 0 ? ['-u', 'root'] : []
  let fast = ''
  let full = ''
  const bonnie = (extra: string[]): string =>
    // as root bonnie++ insists on -u (the user to run as); as anyone else it must not get it
    execFileSync('bonnie++', ['-d', scratch.dir, '-s', '32M', '-r', '16', ...asRoot, '-q', ...extra], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
  beforeAll(() => {
    // -f skips the per-character tests: quick, and mostly +++++ on a fast disk
    fast = bonnie(['-n', '1', '-f', '-x', '2'])
    full = bonnie(['-n', '0', '-x', '1'])
  }, 120_000)
  afterAll(() => scratch.remove())

  it('reads every line of -x 2, the header line skipped', () => {
    const recs = parseBonnieCsv(fast)
    expect(recs).toHaveLength(2)
    for (const r of recs) {
      expect(Number(r.format)).toBeGreaterThanOrEqual(1.96)
      expect(r.sizeBytes).toBe(32 * 2 ** 20)
      expect(r.tests.putc.rate).toBeNull() // -f: not run
      for (const t of Object.values(r.tests)) expect(t.rate === null || t.rate >= 0).toBe(true)
    }
    const f = importText(fast, 'fast.csv')
    expect(f.runs.map((r) => r.run.repetition)).toEqual([0, 1])
  })

  it('turns a full run into phases whose rates are bonnie++’s', () => {
    const [r] = parseBonnieCsv(full)
    expect(r.tests.putc.rate).toBeGreaterThan(0)
    const [{ run }] = importText(full, 'full.csv').runs
    const putc = run.processes[0].phases!.find((p) => p.name === 'putc')!
    expect(putc.bytes / 1024 / putc.seconds).toBeCloseTo(r.tests.putc.rate!, 6)
    expect(run.seconds).toBeGreaterThan(0)
  })
})
