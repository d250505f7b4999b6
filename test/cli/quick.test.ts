import { describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

const root = new URL('../..', import.meta.url).pathname
const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, [join(root, 'bin/iosched-lab.mjs'), ...args], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}
// short tests on a fast device: the suite's cost, not the benchmark's
const short = ['--preset', 'nullblk', '--measure', '0.05', '--interval', '0.02', '--size', '8M']

describe('iosched-lab quick', () => {
  it('lists the sets, the defaults marked', () => {
    const r = cli('quick', '--list')
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/^seq1m-q8t1\s+yes\s+SEQ1M Q8T1: sequential 1 MiB/m)
    expect(r.out).toMatch(/^rnd4k-q32t1\s+RND4K Q32T1/m)
    expect(r.out).toMatch(/^profile-database\s+yes\s+Database profile: data \+ log/m)
  })

  it('simulates the chosen sets and prints the disk-mark-like summary', () => {
    const r = cli(
      'quick',
      'seq1m-q8t1',
      'RND4K Q1T1',
      'profile-database',
      ...short,
      '--schedulers',
      'none,bfq',
    )
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    const lines = r.out.split('\n')
    expect(lines[0]).toBe(
      'Quick tests — simulated on nullblk, host linux-modern; 0.05 s per test, 3 test files of 2.00 MiB. MB = 10^6 bytes.',
    )
    const header = lines.find((l) => l.startsWith('test'))!
    expect(header.split(/\s{2,}/)).toEqual([
      'test',
      'none read MB/s',
      'none write MB/s',
      'none IOPS r/w',
      'bfq read MB/s',
      'bfq write MB/s',
      'bfq IOPS r/w',
    ])
    const row = (name: string) =>
      lines
        .find((l) => l.startsWith(name + ' '))!
        .trim()
        .split(/\s{2,}/)
    for (const t of ['SEQ1M Q8T1', 'RND4K Q1T1', 'DB data', 'DB log']) expect(row(t)).toHaveLength(7)
    // a sequential 1 MiB test: MB/s = IOPS × 1.048576
    const [, rd, wr, iops] = row('SEQ1M Q8T1')
    const [ri, wi] = iops.split('/').map(Number)
    expect(Number(rd)).toBeGreaterThan(0)
    expect(Number(wr)).toBeGreaterThan(0)
    expect(Number(rd) / ri).toBeCloseTo(1.048576, 2)
    expect(Number(wr) / wi).toBeCloseTo(1.048576, 2)
    // the log only writes: its reads are not measured (-, the CLI's missing value), not a rate of 0
    expect(row('DB log')[1]).toBe('-')
    expect(Number(row('DB log')[2])).toBeGreaterThan(0)
    expect(row('DB log')[3]).toMatch(/^-\/[\d.,]+$/)
  }, 120_000)

  it('prints one JSON document with the summary, the spec and the run’s document', () => {
    const r = cli('quick', 'rnd4k-q32t16', ...short, '--schedulers', 'mq-deadline', '--json')
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.out)
    expect(doc.schema).toBe('iosched-lab/quick-output@1')
    expect(doc.sets).toEqual([{ id: 'rnd4k-q32t16', title: 'RND4K Q32T16', kind: 'diskmark' }])
    expect(doc.summary.columns).toEqual(['mq-deadline'])
    expect(doc.summary.rows[0].test).toBe('RND4K Q32T16')
    expect(doc.summary.rows[0].cells['mq-deadline'].readIops).toBeGreaterThan(0)
    expect(doc.spec.workload.processes[0].params).toMatchObject({ numjobs: 16, iodepth: 32, bs: 4096 })
    expect(doc.result.schema).toBe('iosched-lab/run-output@1')
    expect(doc.result.schedulers[0].processes.map((p: { name: string }) => p.name)).toContain(
      'RND4K Q32T16 read/15',
    )
  }, 120_000)

  it('prints run’s table as well with --tables', () => {
    const r = cli('quick', 'seq1m-q1t1', ...short, '--schedulers', 'none', '--tables')
    expect(r.code).toBe(0)
    expect(r.out).toContain('quick-seq1m-q1t1 — nullblk, host linux-modern')
    expect(r.out).toContain('SEQ1M Q1T1 read MB/s')
    expect(r.out).toContain('Quick tests — simulated on nullblk')
  }, 120_000)

  it('says what is wrong with bad input, and where', () => {
    const bad = (...args: string[]) => {
      const r = cli('quick', ...args)
      expect(r.code).toBe(2)
      return r.err.trim()
    }
    expect(bad('seq2m')).toMatch(/quick: unknown quick test set "seq2m"; known: seq1m-q8t1, /)
    expect(bad('--preset', 'floppy')).toMatch(
      /iosched-lab: quick: device\.preset: unknown device preset "floppy"/,
    )
    expect(bad('--schedulers', 'none,cfqq')).toMatch(/quick: schedulers\[1\]: unknown scheduler "cfqq"/)
    expect(bad('--measure', 'soon')).toContain('quick: --measure expects seconds ≥ 0.001, got "soon"')
    expect(bad('--size', '1k')).toContain('quick: --size expects a size of at least 4k')
    expect(bad('--repetitions', '0')).toContain('quick: --repetitions expects a whole number 1–1000, got "0"')
    expect(bad('--real', '--confirm', 'sdb')).toContain('--confirm goes with --device')
  }, 60_000)

  it('is in the usage text', () => {
    const r = cli('help')
    expect(r.out).toContain('quick [SET…]')
    expect(r.out).toContain('--real [run --real’s options]')
  })
})
