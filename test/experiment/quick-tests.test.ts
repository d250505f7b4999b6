import { describe, expect, it } from 'vitest'
import { summarizeRuns } from '../../src/shared/experiment/compare'
import type { ExperimentResult } from '../../src/shared/experiment/compare'
import {
  DEFAULT_QUICK_SCHEDULERS,
  DEFAULT_QUICK_SETS,
  QUICK_TEST_SETS,
  QuickTestError,
  diskMarkName,
  findQuickSets,
  quickSizeBytes,
  quickTestSpec,
} from '../../src/shared/experiment/quick-tests'
import type { QuickTestSet } from '../../src/shared/experiment/quick-tests'
import { directions, quickSummary } from '../../src/shared/experiment/quick-summary'
import { simulate } from '../../src/shared/experiment/runner'
import { formatIssues, validateSpec } from '../../src/shared/experiment/validate'
import type { ResolvedSpec } from '../../src/shared/experiment/resolved'
import { testFileSize } from '../../src/main/services/real/dir-target'
import { bytesNeeded } from '../../src/main/services/real/file-layout'

const resolve = (doc: unknown): ResolvedSpec => {
  const v = validateSpec(doc)
  if (!v.ok) throw new Error(formatIssues(v.issues))
  return v.spec
}

const set = (id: string): QuickTestSet => findQuickSets([id])[0]

describe('quick tests: the test files’ size, as `quick --size` and the app’s panel take it', () => {
  it('reads sizes as fio writes them, KDiskMark’s 1 GiB among them', () => {
    expect(quickSizeBytes('1G')).toBe(1 << 30)
    expect(quickSizeBytes('1024m')).toBe(1 << 30)
    expect(quickSizeBytes(' 64M ')).toBe(64 << 20)
    expect(quickSizeBytes('4k')).toBe(4096)
    expect(quickSizeBytes('1GB')).toBe(1e9)
  })

  it('refuses what is not a size, or under 4 KiB, saying what it expects', () => {
    for (const bad of ['', '1k', '4095', 'lots', '64 furlongs', '-1G', '1.5.5M'])
      expect(() => quickSizeBytes(bad)).toThrow(
        new QuickTestError(`expects a size of at least 4k, like 64M or 1G, got "${bad}"`),
      )
  })
})

describe('quick tests: the catalogue', () => {
  it('has the disk benchmarks’ usual tests under their usual names, and the defaults exist', () => {
    const names = QUICK_TEST_SETS.filter((s) => s.kind === 'diskmark').map((s) => s.title)
    expect(names).toEqual(
      expect.arrayContaining(['SEQ1M Q8T1', 'SEQ1M Q1T1', 'RND4K Q32T16', 'RND4K Q1T1', 'RND4K Q32T1']),
    )
    expect(findQuickSets(DEFAULT_QUICK_SETS).map((s) => s.id)).toEqual([...DEFAULT_QUICK_SETS])
    expect(new Set(QUICK_TEST_SETS.map((s) => s.id)).size).toBe(QUICK_TEST_SETS.length)
    expect(diskMarkName({ pattern: 'seq', bs: 128 * 1024, q: 32, t: 1 })).toBe('SEQ128K Q32T1')
    expect(DEFAULT_QUICK_SCHEDULERS).toEqual(['none', 'mq-deadline', 'kyber', 'bfq'])
  })

  it('finds sets by id or by name, and names the known ones for an unknown one', () => {
    expect(findQuickSets(['SEQ1M Q8T1', 'seq1m-q8t1']).map((s) => s.id)).toEqual(['seq1m-q8t1'])
    expect(() => findQuickSets(['seq2m'])).toThrow(QuickTestError)
    expect(() => findQuickSets(['seq2m'])).toThrow(/unknown quick test set "seq2m"; known: seq1m-q8t1, /)
  })

  it('turns every set into a spec that validates, with the kernel’s four schedulers by default', () => {
    for (const s of QUICK_TEST_SETS) {
      const spec = resolve(quickTestSpec([s]))
      expect(spec.name).toBe(`quick-${s.id}`)
      expect(spec.schedulers.map((x) => x.label)).toEqual([...DEFAULT_QUICK_SCHEDULERS])
      expect(spec.device.preset).toBe('ssd-sata-mlc')
      for (const p of spec.processes) {
        expect(p.type).toBe('fio')
        expect(p.name.startsWith(`${s.short} `)).toBe(true)
        expect(p.params.time_based).toBe(true)
        expect(p.params.runtime).toBe(5)
      }
    }
    // all of them in one spec, too
    const all = resolve(quickTestSpec(QUICK_TEST_SETS))
    expect(new Set(all.processes.map((p) => p.name)).size).toBe(all.processes.length)
    expect(() => quickTestSpec([])).toThrow(QuickTestError)
  })

  it('means what a disk-mark name says: KDiskMark’s fio job, read then write on one test file', () => {
    const spec = resolve(quickTestSpec([set('rnd4k-q32t16')]))
    const [read, write] = spec.processes
    expect([read.name, write.name]).toEqual(['RND4K Q32T16 read', 'RND4K Q32T16 write'])
    for (const p of [read, write]) {
      expect(p.params).toMatchObject({
        bs: 4096,
        iodepth: 32,
        numjobs: 16,
        ioengine: 'libaio',
        direct: true,
        end_fsync: true,
        size: 2 ** 30,
        filename: 'diskmark.test',
      })
    }
    expect(read.params.rw).toBe('randread')
    expect(write.params.rw).toBe('randwrite')
    expect(read.startMs).toBe(0)
    expect(write.startMs).toBe(10_000) // 5 s measuring + 5 s interval
    expect(spec.files).toEqual([{ name: 'diskmark.test', size: 2 ** 30 }])
  })

  it('writes one KDiskMark-sized test file (1 GiB, its size=1024m) in a directory, whatever the sets', () => {
    const fileIn = (ids: readonly string[], o = {}) =>
      testFileSize(bytesNeeded(resolve(quickTestSpec(findQuickSets(ids), o)).files, true))
    // the default sets: the disk-mark tests' file and the database's data and log share it (3 GiB before)
    expect(fileIn(DEFAULT_QUICK_SETS)).toBeLessThanOrEqual(2 ** 30)
    expect(fileIn(DEFAULT_QUICK_SETS)).toBe(3 * 341 * 2 ** 20)
    expect(fileIn(QUICK_TEST_SETS.map((s) => s.id))).toBeLessThanOrEqual(2 ** 30)
    // KDiskMark's own sets alone: its one 1 GiB file, whole
    expect(fileIn(['seq1m-q8t1', 'rnd4k-q1t1'])).toBe(2 ** 30)
    // and --size changes it
    expect(fileIn(DEFAULT_QUICK_SETS, { sizeBytes: 3 * 2 ** 30 })).toBe(3 * 2 ** 30)
    expect(fileIn(['profile-database'], { sizeBytes: 64 * 2 ** 20 })).toBe(64 * 2 ** 20)
  })

  it('runs the sets one after another, as KDiskMark’s "All" does', () => {
    const spec = resolve(
      quickTestSpec(findQuickSets(['seq1m-q8t1', 'profile-database', 'rnd4k-q1t1']), {
        measureSeconds: 2,
        intervalSeconds: 1,
      }),
    )
    expect(spec.name).toBe('quick-tests')
    expect(spec.processes.map((p) => [p.name, p.startMs])).toEqual([
      ['SEQ1M Q8T1 read', 0],
      ['SEQ1M Q8T1 write', 3000],
      ['DB data', 6000],
      ['DB log', 6000],
      ['RND4K Q1T1 read', 9000],
      ['RND4K Q1T1 write', 12000],
    ])
    expect(spec.processes.slice(0, 2).map((p) => [p.params.rw, p.params.bs, p.params.iodepth])).toEqual([
      ['read', 2 ** 20, 8],
      ['write', 2 ** 20, 8],
    ])
    // ends at 14 s: the limit leaves room, and every test is a stop process
    expect(spec.stop.maxSeconds).toBeGreaterThanOrEqual(44)
    expect(spec.stop.processes).toHaveLength(6)
  })

  it('takes the preset, schedulers, size, repetitions and seed it is given', () => {
    const spec = resolve(
      quickTestSpec([set('profile-database')], {
        preset: 'nvme-tlc',
        schedulers: ['none', 'bfq'],
        sizeBytes: 64 * 2 ** 20,
        repetitions: 3,
        seed: 7,
      }),
    )
    expect(spec.device.preset).toBe('nvme-tlc')
    expect(spec.schedulers.map((s) => s.name)).toEqual(['none', 'bfq'])
    expect(spec.repetitions).toBe(3)
    expect(spec.seed).toBe(7)
    const data = spec.processes.find((p) => p.name === 'DB data')!
    expect(data.params).toMatchObject({
      rw: 'randrw',
      rwmixread: 70,
      bs: 4096,
      numjobs: 4,
      size: 32 * 2 ** 20, // the 64 MiB shared by the data and the log
    })
    const log = spec.processes.find((p) => p.name === 'DB log')!
    expect(log.params).toMatchObject({ rw: 'write', fsync: 1, ioengine: 'psync' })
    // an unknown preset is the spec's own error, at its place
    const v = validateSpec(quickTestSpec([set('seq1m-q1t1')], { preset: 'floppy' }))
    expect(v.ok).toBe(false)
    if (!v.ok) expect(v.issues[0].path).toBe('device.preset')
  })
})

describe('quick tests: simulated, and summarised as a disk benchmark shows them', () => {
  const run = (s: QuickTestSet, schedulers = ['none', 'mq-deadline']): ExperimentResult => {
    const spec = resolve(
      quickTestSpec([s], {
        preset: 'nullblk',
        schedulers,
        measureSeconds: 0.05,
        intervalSeconds: 0.02,
        sizeBytes: 8 * 2 ** 20,
      }),
    )
    const runs = spec.schedulers.map((_, i) => simulate(spec, i, 0, { why: false }))
    return { schema: 'iosched-lab/experiment@1', name: spec.name, spec, runs, summary: summarizeRuns(runs) }
  }

  it('a disk-mark set reads, then writes, and its row has both', () => {
    const s = set('seq1m-q8t1')
    const r = run(s)
    for (const x of r.runs) {
      const read = x.processes.find((p) => p.name === 'SEQ1M Q8T1 read')!
      const write = x.processes.find((p) => p.name === 'SEQ1M Q8T1 write')!
      expect(read.readBytes).toBeGreaterThan(0)
      expect(read.writeBytes).toBe(0)
      expect(write.writeBytes).toBeGreaterThan(0)
      expect(write.readBytes).toBe(0)
      // the write starts after the read's measuring time and the interval
      expect(write.startSeconds).toBeGreaterThanOrEqual(0.07 - 1e-9)
      expect(read.startSeconds + read.seconds).toBeLessThanOrEqual(write.startSeconds + 1e-9)
    }
    const sum = quickSummary([s], r)
    expect(sum.columns).toEqual(['none', 'mq-deadline'])
    // in the spec's order, whatever order the runs finished in
    expect(quickSummary([s], { ...r, runs: [...r.runs].reverse() }).columns).toEqual(['none', 'mq-deadline'])
    expect(sum.rows.map((x) => x.test)).toEqual(['SEQ1M Q8T1'])
    const c = sum.rows[0].cells.none
    const read = r.runs[0].processes.find((p) => p.name === 'SEQ1M Q8T1 read')!
    expect(c.readMBps).toBeCloseTo(read.readBytes / 1e6 / read.seconds, 6)
    expect(c.readIops).toBeCloseTo(read.ops / read.seconds, 6)
    expect(c.readMBps / c.readIops).toBeCloseTo(2 ** 20 / 1e6, 3) // 1 MiB per I/O
    expect(c.writeMBps).toBeGreaterThan(0)
  })

  it('T16 runs sixteen jobs, folded into one row', () => {
    const s = set('rnd4k-q32t16')
    const r = run(s, ['none'])
    expect(r.runs[0].processes.filter((p) => p.name.startsWith('RND4K Q32T16 read/'))).toHaveLength(16)
    const c = quickSummary([s], r).rows[0].cells.none
    expect(c.readMBps / c.readIops).toBeCloseTo(4096 / 1e6, 6)
    expect(c.readIops).toBeGreaterThan(0)
    expect(c.writeIops).toBeGreaterThan(0)
  })

  it('a profile has a row per job, with what each read and wrote', () => {
    const s = set('profile-database')
    const r = run(s, ['mq-deadline'])
    const sum = quickSummary([s], r)
    expect(sum.rows.map((x) => x.test)).toEqual(['DB data', 'DB log'])
    const data = sum.rows[0].cells['mq-deadline']
    expect(data.readMBps).toBeGreaterThan(data.writeMBps) // 70/30
    expect(data.writeMBps).toBeGreaterThan(0)
    const log = sum.rows[1].cells['mq-deadline']
    // the log only writes: its reads are not measured (shown –), not a rate of 0
    expect(log.readMBps).toBeNaN()
    expect(log.readIops).toBeNaN()
    expect(log.writeMBps).toBeGreaterThan(0)
    expect(log.writeIops).toBeGreaterThan(0)
  })

  it('knows a fio job’s directions by its rw=, fio’s default a read', () => {
    const d = (rw?: string) => directions(rw)
    expect(d('write')).toEqual({ read: false, write: true })
    expect(d('randwrite')).toEqual({ read: false, write: true })
    expect(d('trimwrite')).toEqual({ read: false, write: true })
    expect(d('randread')).toEqual({ read: true, write: false })
    expect(d(undefined)).toEqual({ read: true, write: false })
    for (const both of ['rw', 'randrw', 'readwrite']) expect(d(both)).toEqual({ read: true, write: true })
  })
})
