import { describe, expect, it } from 'vitest'
import { ImportError } from '../../src/shared/formats/import-error'
import { parseIozone } from '../../src/shared/formats/iozone'
import { parseLmdd } from '../../src/shared/formats/lmdd'
import { importText } from '../../src/shared/import/import-text'
import { IOZONE_2012, IOZONE_AUTO, LMDD_2012 } from './fixtures'
import { thrown } from './tools'

describe('lmdd summaries', () => {
  it('reads the label, MB (10^6 bytes), seconds and MB/sec, and the rusage line before', () => {
    const [w, r] = parseLmdd(LMDD_2012)
    expect(w).toMatchObject({
      line: 1,
      label: 'write:',
      mb: 393.216,
      bytes: 393216000,
      seconds: 17.0963,
      reportedMBps: 23,
    })
    expect(w.rusage).toBeNull()
    expect(r).toMatchObject({ line: 3, label: 'read:', reportedMBps: 41 })
    expect(r.rusage).toEqual({ real: 9.59, sys: 1.2, user: 0.01, idle: 8.38 })
  })

  it('makes one run per summary, the process named after the label', () => {
    const f = importText(LMDD_2012, 'row-emmc.txt')
    expect(f.format).toBe('lmdd')
    const [w, r] = f.runs.map((x) => x.run.processes[0])
    expect(w).toMatchObject({ name: 'write', bytes: 393216000 })
    expect(w.MBps).toBeCloseTo(23, 3)
    expect(r.MBps).toBeCloseTo(41, 3)
    expect(r.cpuSeconds).toBeCloseTo(1.21, 9)
  })

  it('names the line and field of a malformed summary', () => {
    const e = thrown(() => parseLmdd('8.1920 MB in 0.0x secs, 1.0 MB/sec')) as ImportError
    expect(e).toBeInstanceOf(ImportError)
    expect(e.message).toBe('line 1, field secs: expected a number, got "0.0x"')
  })
})

describe('iozone text report', () => {
  it('maps values to columns by position, the upper header’s prefixes joined', () => {
    const [r] = parseIozone(IOZONE_2012)
    expect(r).toMatchObject({
      version: '3.397',
      unit: 'kB/s',
      command: 'iozone -i0 -i1 -r4096k -s200m -I -e -w -f/data/write',
    })
    expect(r.tests).toEqual([
      'write',
      'rewrite',
      'read',
      'reread',
      'random read',
      'random write',
      'bkwd read',
      'record rewrite',
      'stride read',
      'fwrite',
      'frewrite',
      'fread',
      'freread',
    ])
    expect(r.rows).toEqual([
      {
        line: 15,
        fileKB: 204800,
        recordKB: 4096,
        values: { write: 23438, rewrite: 23900, read: 22461, reread: 22890 },
      },
    ])
  })

  it('keeps blank columns blank: a row with write and random tests only', () => {
    const [r] = parseIozone(IOZONE_AUTO)
    expect(r.rows[0].values).toEqual({
      write: 131760,
      rewrite: 167822,
      read: 191255,
      reread: 204110,
      'random read': 49352,
      'random write': 108890,
    })
    expect(r.rows[2].values).toMatchObject({
      'bkwd read': 33578,
      'record rewrite': 61774,
      'stride read': 30137,
      freread: 3824589,
    })
    // -i0 -i2: write, rewrite, then the random columns — not read and reread
    expect(r.rows[3].values).toEqual({
      write: 385198,
      rewrite: 389054,
      'random read': 379221,
      'random write': 387988,
    })
  })

  it('makes one run per row, the tests as phases; the published write rate comes back', () => {
    const f = importText(IOZONE_2012, 'cfq.txt')
    expect(f.runs).toHaveLength(1)
    const p = f.runs[0].run.processes[0]
    expect(p.phases!.map((x) => x.name)).toEqual(['write', 'rewrite', 'read', 'reread'])
    const w = p.phases![0]
    expect(w.bytes / w.seconds / 1e6).toBeCloseTo(24.0, 1)
    expect(w.ops).toBe(50)
    const auto = importText(IOZONE_AUTO, 'ssd.txt')
    expect(auto.runs.map((r) => [r.run.label, r.run.repetition])).toEqual([
      ['ssd s=100m r=4k', 0],
      ['ssd s=100m r=1m', 0],
      ['ssd s=16m r=4k', 0],
      ['ssd s=100m r=1m', 1],
    ])
  })

  it('names the line and column of a value under no column', () => {
    const bad = IOZONE_2012.replace('    4096    23438    23900', '    4096 23438       23900')
    const e = thrown(() => parseIozone(bad)) as ImportError
    expect(e).toBeInstanceOf(ImportError)
    expect(e.line).toBe(15)
    expect(e.message).toMatch(
      /^line 15, field column \d+: the value "23438" at column \d+ lines up with no column/,
    )
    expect(thrown(() => parseIozone(IOZONE_2012.replace('22461', '22x61'))).message).toBe(
      'line 15, field read: expected a number, got "22x61"',
    )
  })
})
