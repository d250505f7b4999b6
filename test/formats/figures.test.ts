import { describe, expect, it } from 'vitest'
import { FIGURE_BOUNDS, figureProblem } from '../../src/shared/formats/figure-bounds'
import { ImportError } from '../../src/shared/formats/import-error'
import { importText } from '../../src/shared/import/import-text'
import type { ImportFormat } from '../../src/shared/import/types'
import * as F from './fixtures'

/**
 * Impossible figures — infinite, zero or negative durations, rates beyond any device, times that
 * go backwards — are refused by every importer with the file, the line and the field, instead of
 * becoming runs.
 */
const refusal = (text: string, format: ImportFormat, file = 'bad.txt'): ImportError => {
  try {
    importText(text, file, { format })
  } catch (e) {
    if (e instanceof ImportError) return e
    throw e
  }
  throw new Error(`${format}: accepted ${JSON.stringify(text.slice(0, 200))}`)
}

describe('the bounds of a measured figure', () => {
  it('are data with a unit and a reason, and say what is wrong with a figure', () => {
    for (const b of Object.values(FIGURE_BOUNDS)) {
      expect(b.reason.length).toBeGreaterThan(20)
      expect(b.max).toBeGreaterThan(b.min)
    }
    expect(FIGURE_BOUNDS.throughput).toMatchObject({ unit: 'B/s', max: 1e12 })
    expect(figureProblem('duration', Infinity, '1.5e+400 s')).toMatch(
      /^impossible duration: 1\.5e\+400 s .*not finite/,
    )
    expect(figureProblem('duration', 0)).toMatch(/impossible duration: 0 s; a measured duration is > 0/)
    expect(figureProblem('throughput', 2e12)).toMatch(/≤ 1e\+12 B\/s: more than 1 TB\/s/)
    expect(figureProblem('throughput', -1)).toMatch(/impossible throughput/)
    expect(figureProblem('time', NaN)).toMatch(/is not a number/)
    expect(figureProblem('throughput', 5e8)).toBeNull()
  })
})

describe('importers refuse impossible figures with the file, line and field', () => {
  it('dd: a time too large to hold, a zero time, and a rate no device reaches', () => {
    const dd = (summary: string): string => `1024+0 records in\n1024+0 records out\n${summary}\n`
    let e = refusal(dd('134217728 bytes transferred in 1.5e+400 seconds (10751652 bytes/sec)'), 'dd')
    expect(e.describe()).toMatch(
      /^bad\.txt: line 3, field seconds: impossible duration: 1\.5e\+400 s .*not finite/,
    )
    e = refusal(dd('134217728 bytes (134 MB, 128 MiB) copied, 0 s, Infinity B/s'), 'dd')
    expect(e.describe()).toMatch(/^bad\.txt: line 3, field seconds: impossible duration: 0 s/)
    // the figures together: 128 MiB in a nanosecond
    e = refusal(dd('134217728 bytes (134 MB, 128 MiB) copied, 0.000000001 s, 1.3 GB/s'), 'dd')
    expect(e.describe()).toMatch(
      /^bad\.txt: line 3, field seconds: impossible throughput: 134217728 bytes in 1e-9 s/,
    )
    e = refusal(dd('134217728 bytes (134 MB, 128 MiB) copied, 1 s, 5 PB/s'), 'dd')
    expect(e.describe()).toMatch(/line 3, field rate: impossible throughput: 5 PB\/s/)
    e = refusal(dd(`${'9'.repeat(400)} bytes transferred in 1 secs (1 bytes/sec)`), 'dd')
    expect(e.describe()).toMatch(/line 3, field bytes: impossible byte count/)
  })

  it('lmdd: a time that makes the rate infinite, and 10^20 MB/s', () => {
    let e = refusal('8.1920 MB in 1e-320 secs, 666.0000 MB/sec', 'lmdd')
    expect(e.describe()).toMatch(
      /^bad\.txt: line 1, field secs: impossible throughput: 8\.1920 MB in 1e-320 secs .*not finite/,
    )
    e = refusal('write: 393.2160 MB in 17.0963 secs, 1e20 MB/sec', 'lmdd')
    expect(e.describe()).toMatch(/line 1, field MB\/sec: impossible throughput: 1e20 MB\/sec \(1e\+26 B\/s\)/)
    e = refusal('read: 393.2160 MB in 0 secs, 41.0000 MB/sec', 'lmdd')
    expect(e.describe()).toMatch(/line 1, field secs: impossible duration/)
  })

  it('KDiskMark: 10^20 MB/s, and IOPS beyond any device', () => {
    const lines = F.KDISKMARK.split('\n')
    const at = lines.findIndex((l) => l.includes('Q=  1, T= 1):   440.320'))
    const bad = (replacement: string): string => lines.map((l, k) => (k === at ? replacement : l)).join('\n')
    let e = refusal(
      bad('Sequential   1 MiB (Q=  1, T= 1):   1e20 MB/s [    430.0 IOPS] <  2320.45 us>'),
      'kdiskmark',
    )
    expect(e.describe()).toMatch(
      new RegExp(`^bad\\.txt: line ${at + 1}, field MB/s: impossible throughput: 1e20 MB/s`),
    )
    e = refusal(
      bad('Sequential   1 MiB (Q=  1, T= 1):   440.320 MB/s [ 5e12 IOPS] <  2320.45 us>'),
      'kdiskmark',
    )
    expect(e.describe()).toMatch(new RegExp(`line ${at + 1}, field IOPS: impossible operation rate`))
  })

  it('vmstat: timestamps that go backwards, and dates that do not exist', () => {
    const lines = F.VMSTAT_T.split('\n')
    const back = [...lines.slice(0, 3), lines[4], lines[3]].join('\n')
    let e = refusal(back, 'vmstat')
    expect(e.describe()).toBe(
      'bad.txt: line 5, field timestamp: time goes backwards: 2026-11-30 08:47:22 comes after 2026-11-30 08:47:24 on an earlier line (a clock that was set back, or a daylight-saving change: vmstat -t prints local time)',
    )
    e = refusal(
      lines.map((l) => l.replace('2026-11-30 08:47:22', '2026-02-30 08:47:22')).join('\n'),
      'vmstat',
    )
    expect(e.describe()).toMatch(
      /line 4, field timestamp: "2026-02-30 08:47:22" is not a date and time that exists/,
    )
    e = refusal(F.VMSTAT_2003.replace('27648', '9'.repeat(20)), 'vmstat')
    expect(e.describe()).toMatch(/line 4, field bi: impossible throughput/)
  })

  it('fio JSON: a rate beyond any device and a number too large to hold, named by their path', () => {
    const doc = JSON.parse(F.FIO_MINI)
    doc.jobs[0].read.bw_bytes = 1e20
    let e = refusal(JSON.stringify(doc, null, 2), 'fio-json')
    expect(e.field).toBe('jobs[0].read.bw_bytes')
    expect(e.describe()).toMatch(
      /^bad\.txt: line \d+, field jobs\[0\]\.read\.bw_bytes: .*impossible throughput: 100000000000000000000/,
    )
    const text = JSON.stringify(JSON.parse(F.FIO_MINI), null, 2).replace(
      /"job_runtime": 2000/,
      '"job_runtime": 1e400',
    )
    e = refusal(text, 'fio-json')
    expect(e.describe()).toMatch(
      /field jobs\[0\]\.job_runtime: .*expected a number, got Infinity \(a number too large to hold\)/,
    )
    const fast = JSON.parse(F.FIO_MINI)
    fast.jobs[0].read.runtime = 1e-6
    expect(refusal(JSON.stringify(fast), 'fio-json').field).toBe('jobs[0].read.runtime')
  })

  it('iozone, bonnie++ and blkparse: rates, sizes and sectors no device has', () => {
    // right-aligned under "write": 10^10 kB/s is 10 TB/s
    const header = '              kB  reclen         write'
    let e = refusal(`${header}\n          204800    4096   10000000000\n`, 'iozone')
    expect(e.describe()).toMatch(/^bad\.txt: line 2, field write: impossible throughput: 10000000000 kB\/s/)
    const bonnie = F.BONNIE_103.split('\n')
    const row = bonnie.findIndex((l) => /^\w/.test(l) && l.includes(','))
    const fields = bonnie[row].split(',')
    const putBlock = fields.findIndex((f, k) => k > 3 && /^\d+$/.test(f))
    fields[putBlock + 2] = '9999999999999'
    bonnie[row] = fields.join(',')
    e = refusal(bonnie.join('\n'), 'bonnie-csv')
    expect(e.describe()).toMatch(
      new RegExp(`line ${row + 1}, field .*impossible throughput: 9999999999999 K/sec`),
    )
    e = refusal(F.BLKPARSE.replace('1000 + 256 [cat]', `${'9'.repeat(30)} + 256 [cat]`), 'blkparse')
    expect(e.describe()).toMatch(/line 5, field sector: impossible byte count/)
  })

  it('checks what the importers compute too: a phase time from a rate no run lasts', () => {
    // 1 byte per second over 200 MB: 6 years for one phase
    const e = refusal(F.IOZONE_2012.replace('  22461', '  0.001'), 'iozone')
    expect(e.describe()).toMatch(
      /^bad\.txt: line 15, field processes\[0\]\.phases\[2\]\.seconds: impossible time/,
    )
  })

  it('still reads every fixture of every tool', () => {
    const all: [string, ImportFormat][] = [
      [F.FIO_MINI, 'fio-json'],
      [F.BONNIE_103, 'bonnie-csv'],
      [F.BONNIE_197, 'bonnie-csv'],
      [F.BONNIE_198, 'bonnie-csv'],
      [F.DD_BSD_1997, 'dd'],
      [F.DD_GNU_FORMS, 'dd'],
      [F.DD_GNU_OLD, 'dd'],
      [F.DD_PROGRESS, 'dd'],
      [F.DD_FREEBSD_NEW, 'dd'],
      [F.LMDD_2012, 'lmdd'],
      [F.IOZONE_2012, 'iozone'],
      [F.IOZONE_AUTO, 'iozone'],
      [F.VMSTAT_2003, 'vmstat'],
      [F.VMSTAT_T, 'vmstat'],
      [F.KDISKMARK, 'kdiskmark'],
      [F.BLKPARSE, 'blkparse'],
    ]
    for (const [text, format] of all)
      expect(importText(text, 'ok.txt', { format }).runs.length).toBeGreaterThan(0)
  })
})
