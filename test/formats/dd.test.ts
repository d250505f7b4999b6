import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { parseDd } from '../../src/shared/formats/dd'
import { ImportError } from '../../src/shared/formats/import-error'
import { importText } from '../../src/shared/import/import-text'
import { DD_BSD_1997, DD_FREEBSD_NEW, DD_GNU_FORMS, DD_GNU_OLD, DD_PROGRESS } from './fixtures'
import { describeWithTools, scratchDir, thrown } from './tools'

describe('dd output', () => {
  it('reads BSD dd with the 1997 figures: bytes, seconds, bytes/sec, records', () => {
    const s = parseDd(DD_BSD_1997)
    expect(s).toHaveLength(3)
    expect(s[0]).toMatchObject({
      line: 4,
      flavour: 'bsd',
      bytes: 134217728,
      seconds: 12.483452,
      reported: { value: 10751652, unit: 'bytes/sec' },
      recordsIn: { full: 1024, partial: 0 },
      recordsOut: { full: 1024, partial: 0 },
    })
    expect(s[0].bytes / s[0].seconds).toBeCloseTo(10751652, -1)
    expect(s[2].reportedBytesPerSecond).toBe(1373942)
  })

  it('reads GNU dd’s forms, new and old, with a comma as the decimal mark', () => {
    const s = parseDd(DD_GNU_FORMS)
    expect(s.map((x) => x.seconds)).toEqual([21.4748, 21.9, 22.1184])
    expect(s.map((x) => x.reportedBytesPerSecond)).toEqual([25e6, 24.5e6, 24.3e6])
    expect(s.every((x) => x.flavour === 'gnu' && x.bytes === 536870912)).toBe(true)
    expect(parseDd(DD_GNU_OLD)[0]).toMatchObject({
      flavour: 'gnu',
      seconds: 4.194304,
      reportedBytesPerSecond: 25e6,
    })
    expect(parseDd(DD_FREEBSD_NEW)[0]).toMatchObject({
      flavour: 'bsd',
      seconds: 12.483,
      reportedBytesPerSecond: 10e6,
    })
    expect(parseDd('1 byte copied, 0.000123 s, 8.1 kB/s')[0]).toMatchObject({
      bytes: 1,
      reportedBytesPerSecond: 8100,
    })
  })

  it('skips status=progress lines: only the summary after the records lines is a run', () => {
    const s = parseDd(DD_PROGRESS)
    expect(s).toHaveLength(1)
    expect(s[0]).toMatchObject({ line: 4, seconds: 20.5 })
  })

  it('makes one run per summary; block sizes label the runs, the same size again repeats', () => {
    const f = importText(DD_BSD_1997, '/data/quantum-1997.txt')
    expect(f.tool).toBe('BSD dd')
    expect(f.runs.map((r) => [r.run.label, r.run.repetition])).toEqual([
      ['quantum-1997 bs=128k', 0],
      ['quantum-1997 bs=4k', 0],
      ['quantum-1997 bs=128k', 1],
    ])
    const p = f.runs[0].run.processes[0]
    expect(p).toMatchObject({ name: 'dd', bytes: 134217728, ops: 1024 })
    expect(p.MBps).toBeCloseTo(10.751652, 5)
    expect(f.runs[0].run.totals.readBytes).toBe(0)
    const g = importText(DD_GNU_FORMS, 'writer.txt')
    expect(g.runs.map((r) => [r.run.label, r.run.repetition])).toEqual([
      ['writer', 0],
      ['writer', 1],
      ['writer', 2],
    ])
  })

  it('names the line and field of a malformed summary', () => {
    const e = thrown(() =>
      parseDd('1+0 records in\n1+0 records out\n512 bytes copied, fast s, 1 MB/s'),
    ) as ImportError
    expect(e).toBeInstanceOf(ImportError)
    expect(e.message).toBe('line 3, field seconds: expected a number of seconds, got "fast"')
    expect(thrown(() => parseDd('1+x records in\n')).message).toBe(
      'line 1, field records in: expected F+P (full+partial blocks), got "1+x"',
    )
    expect(thrown(() => parseDd('512 bytes copied, 1 s, 1 furlongs/s')).message).toMatch(/field rate unit/)
    expect(thrown(() => parseDd('nothing here\n\n')).message).toMatch(/^line 3: no dd summary/)
  })
})

describeWithTools(['dd'], 'dd output from a real dd', () => {
  const scratch = scratchDir('iosched-dd-')
  let out = ''
  beforeAll(() => {
    const file = join(scratch.dir, 'data')
    const r = (args: string[]): string => spawnSync('dd', args, { encoding: 'utf8' }).stderr
    out =
      r(['if=/dev/zero', `of=${file}`, 'bs=64k', 'count=64', 'conv=fsync']) +
      r([`if=${file}`, 'of=/dev/null', 'bs=4k'])
  })
  afterAll(() => scratch.remove())

  it('reads both summaries with their records', () => {
    const s = parseDd(out)
    expect(s).toHaveLength(2)
    expect(s[0]).toMatchObject({ bytes: 64 * 65536, recordsOut: { full: 64, partial: 0 } })
    expect(s[1]).toMatchObject({ bytes: 64 * 65536, recordsIn: { full: 1024, partial: 0 } })
    const f = importText(out, 'dd.log')
    expect(f.runs.map((r) => r.run.label)).toEqual(['dd bs=64k', 'dd bs=4k'])
  })
})
