import { describe, expect, it } from 'vitest'
import { execFileSync } from 'node:child_process'
import { ImportError } from '../../src/shared/formats/import-error'
import { parseKDiskMark } from '../../src/shared/formats/kdiskmark'
import { parseVmstat } from '../../src/shared/formats/vmstat'
import { importText } from '../../src/shared/import/import-text'
import { KDISKMARK, VMSTAT_2003, VMSTAT_T } from './fixtures'
import { describeWithTools, thrown } from './tools'

describe('vmstat logs', () => {
  it('reads columns by name across repeated headers (2003 procps, with w)', () => {
    const log = parseVmstat(VMSTAT_2003)
    expect(log.columns).toContain('w')
    expect(log.samples.map((s) => s.values.bi)).toEqual([812, 27648, 28416, 25600, 28672])
    expect(log.firstIsSinceBoot).toBe(true)
  })

  it('is a time series of bi/bo in MB/s (1 KiB blocks), the since-boot sample left out', () => {
    const [{ run, metrics }] = importText(VMSTAT_2003, 'as-2003.log').runs
    expect(run.processes).toEqual([])
    expect(run.timeSeries.tMs).toEqual([0, 1000, 2000, 3000])
    expect(run.timeSeries.readMBps[0]).toBeCloseTo((27648 * 1024) / 1e6, 9)
    expect(run.timeSeries.writeMBps[3]).toBeCloseTo((9216 * 1024) / 1e6, 9)
    expect(run.seconds).toBe(4)
    // anticipatory in 2003: bi ≈ 26–29 MB/s while the read runs
    expect(run.totals.readMBps).toBeGreaterThan(26)
    expect(run.totals.readMBps).toBeLessThan(30)
    expect(metrics.find((m) => m.name === 'bi mean')!.unit).toBe('KiB/s')
  })

  it('takes the interval from vmstat -t timestamps', () => {
    const log = parseVmstat(VMSTAT_T)
    expect(log.columns[log.columns.length - 1]).toBe('timestamp')
    const [{ run }] = importText(VMSTAT_T, 'vm.log').runs
    expect(run.timeSeries.intervalMs).toBe(2000)
    expect(run.timeSeries.tMs).toEqual([0, 2000])
    expect(importText(VMSTAT_2003, 'a.log', { vmstatIntervalSeconds: 5 }).runs[0].run.timeSeries.tMs[1]).toBe(
      5000,
    )
  })

  it('names the line and column of a bad sample', () => {
    const e = thrown(() => parseVmstat(VMSTAT_2003.replace('27648', '27k48'))) as ImportError
    expect(e).toBeInstanceOf(ImportError)
    expect(e.message).toBe('line 4, field bi: expected a number, got "27k48"')
    expect(thrown(() => parseVmstat(VMSTAT_2003.replace(' 3980', ''))).message).toMatch(
      /^line 4, field .*: 15 values, but the header has 16 columns/,
    )
    expect(thrown(() => parseVmstat(' 1 2 3\n')).message).toMatch(
      /^line 1: a sample before any vmstat header/,
    )
  })
})

describeWithTools(
  ['vmstat'],
  'vmstat from the real vmstat',
  () => {
    it('reads vmstat 1 2 and vmstat -t 1 2', () => {
      for (const args of [
        ['1', '2'],
        ['-t', '1', '2'],
        ['-w', '1', '2'],
      ]) {
        const out = execFileSync('vmstat', args, { encoding: 'utf8' })
        const f = importText(out, 'vmstat.log')
        expect(f.format).toBe('vmstat')
        expect(f.runs[0].run.timeSeries.tMs).toHaveLength(1)
      }
    })
  },
  { optional: true },
)

describe('KDiskMark reports', () => {
  it('reads sections and tests, keeping the printed MB/s and the corrected one', () => {
    const r = parseKDiskMark(KDISKMARK)
    expect(r).toMatchObject({
      version: '3.1.4',
      fioVersion: '3.36',
      profile: 'Default',
      runs: 5,
      measureSeconds: 5,
    })
    expect(r.testBytes).toBe(2 ** 30)
    expect(r.tests).toHaveLength(9)
    expect(r.tests[0]).toMatchObject({
      section: 'read',
      pattern: 'Sequential',
      blockBytes: 2 ** 20,
      queueDepth: 8,
      threads: 1,
      reportedMBps: 512,
      iops: 500,
      latencyUs: 15990.1,
      name: 'SEQ1M Q8T1',
    })
    // 500 IOPS × 1 MiB = 524.288 MB/s: KDiskMark printed 512 (KiB/s / 1000)
    expect(r.tests[0].MBps).toBeCloseTo((500 * 2 ** 20) / 1e6, 9)
    expect(r.tests[3]).toMatchObject({ name: 'RND4K Q1T1', section: 'read' })
    expect(r.tests[8].section).toBe('mix')
  })

  it('is one run, the tests as phases of one process', () => {
    const [{ run, metrics }] = importText(KDISKMARK, 'ssd.txt').runs
    const p = run.processes[0]
    expect(p.phases!.map((x) => x.name).slice(0, 2)).toEqual(['read SEQ1M Q8T1', 'read SEQ1M Q1T1'])
    expect(p.phases![0].seconds).toBe(5)
    expect(p.phases![0].bytes / 5 / 1e6).toBeCloseTo(524.288, 3)
    expect(metrics.find((m) => m.name === 'read SEQ1M Q8T1 as printed')!.value).toBe(512)
    expect(run.imported).toMatchObject({ tool: 'KDiskMark', version: '3.1.4' })
  })

  it('names the line and field of a malformed test line', () => {
    const e = thrown(() =>
      parseKDiskMark(KDISKMARK.replace('(Q= 32, T= 1):   360.448', '(Q= 3x, T= 1):   360.448')),
    ) as ImportError
    expect(e).toBeInstanceOf(ImportError)
    expect(e.message).toBe('line 10, field Q: expected a whole number, got "3x"')
    expect(thrown(() => parseKDiskMark(KDISKMARK.replace('360.448 MB/s', '360.448 MB/h'))).message).toMatch(
      /^line 10: not a KDiskMark test line/,
    )
  })
})
