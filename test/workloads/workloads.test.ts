import { describe, expect, it } from 'vitest'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { simulate } from '../../src/shared/experiment/runner'
import { WRITE } from '../../src/shared/block/types'

// Workloads on bare files (no file system: the host preset's ext4 would add its journal and
// metadata to the bytes counted here; test/fs covers what a file system adds).
const run = (
  processes: unknown[],
  extra: Record<string, unknown> = {},
  device: unknown = { preset: 'nullblk' },
) =>
  simulate(
    resolveSpec({
      device,
      host: { filesystem: { type: 'none' } },
      workload: { processes, ...extra },
      schedulers: ['noop'],
    }),
    0,
    0,
  )
const slowNull = { preset: 'nullblk', overrides: { completionUs: 1000 } }
const serialNull = { preset: 'nullblk', overrides: { completionUs: 1000, queueDepth: 1 } }

describe('dd', () => {
  it('reads bs × count bytes and finishes', () => {
    const r = run([{ name: 'd', type: 'dd', params: { bs: '64k', count: 100 } }])
    expect(r.processes[0]).toMatchObject({ bytes: 6_553_600, ops: 100, finished: true })
    expect(r.stoppedBy).toBe('processes')
  })

  it('loops until the experiment stops when asked to', () => {
    const r = run([{ name: 'd', type: 'dd', params: { op: 'write', bs: '1M', count: 8, loop: true } }], {
      stop: { maxSeconds: 2 },
    })
    expect(r.stoppedBy).toBe('time-limit')
    expect(r.seconds).toBe(2)
    expect(r.processes[0].finished).toBe(false)
    expect(r.processes[0].bytes).toBeGreaterThan(16 * 2 ** 20)
  })

  it('with fsync, has every byte on the device when it finishes', () => {
    const r = run([{ name: 'd', type: 'dd', params: { op: 'write', bs: '1M', count: 16, fsync: true } }])
    expect(r.processes[0].finished).toBe(true)
    expect(r.totals.writeBytes).toBe(16 * 2 ** 20)
    const plain = run([{ name: 'd', type: 'dd', params: { op: 'write', bs: '1M', count: 16 } }])
    expect(plain.totals.writeBytes).toBe(0) // still dirty in the cache
  })

  it('with O_DIRECT writes straight to the device in driver-sized requests', () => {
    const r = run(
      [{ name: 'd', type: 'dd', params: { op: 'write', bs: '1M', count: 4, direct: true } }],
      {},
      slowNull,
    )
    expect(r.totals.writeBytes).toBe(4 * 2 ** 20)
    expect(r.totals.meanRequestKiB).toBe(512) // null_blk's max_sectors_kb
  })

  it('starts late when asked to', () => {
    const r = run([{ name: 'd', type: 'dd', params: { bs: '4k', count: 10 }, startMs: 1500 }])
    expect(r.processes[0].startSeconds).toBe(1.5)
  })
})

describe('fio-like jobs', () => {
  const fio = (params: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    run([{ name: 'f', type: 'fio', params: { size: '64M', direct: true, ...params } }], extra, slowNull)

  it('keeps iodepth I/Os in flight with an asynchronous engine', () => {
    const qd1 = fio({ rw: 'randread', bs: '4k', runtime: 1, time_based: true })
    const qd8 = fio({
      rw: 'randread',
      bs: '4k',
      runtime: 1,
      time_based: true,
      iodepth: 8,
      ioengine: 'libaio',
    })
    expect(qd1.processes[0].ops).toBeGreaterThan(900)
    expect(qd1.processes[0].ops).toBeLessThanOrEqual(1000) // 1 ms each, plus system calls
    expect(qd8.processes[0].ops / qd1.processes[0].ops).toBeGreaterThan(7.5)
    expect(qd8.processes[0].latencyMs.p50).toBeCloseTo(1, 1)
  })

  it('holds a rate limit and stalls for think time', () => {
    const rated = fio({ rw: 'read', bs: '64k', rate: '2M', runtime: 3, time_based: true })
    expect(rated.processes[0].MBps).toBeCloseTo((2 * 2 ** 20) / 1e6, 1)
    const think = fio({ rw: 'randread', bs: '4k', thinktime: 1000, runtime: 1, time_based: true })
    expect(think.processes[0].ops).toBeGreaterThan(450)
    expect(think.processes[0].ops).toBeLessThan(520) // ≈ 1 / (1 ms service + 1 ms think)
  })

  it('covers every block once per pass in random order, and mixes reads and writes by rwmixread', () => {
    const r = run([
      { name: 'f', type: 'fio', params: { rw: 'randrw', rwmixread: 70, bs: '4k', size: '4M', direct: true } },
    ])
    const p = r.processes[0]
    expect(p.ops).toBe(1024)
    expect(p.readBytes / p.bytes).toBeGreaterThan(0.65)
    expect(p.readBytes / p.bytes).toBeLessThan(0.75)
    const sectors = new Set(r.dispatches.sector)
    expect(sectors.size).toBe(1024) // each 4 KiB block exactly once
  })

  it('runs numjobs processes, each with its own file unless one is named', () => {
    const r = run([
      { name: 'f', type: 'fio', params: { rw: 'write', bs: '64k', size: '1M', numjobs: 3, direct: true } },
    ])
    expect(r.processes.map((p) => p.name)).toEqual(['f/0', 'f/1', 'f/2'])
    const writes = r.dispatches.sector.filter((_, i) => r.dispatches.op[i] === WRITE)
    expect(new Set(writes.map((s) => Math.floor(s / 2048))).size).toBeGreaterThanOrEqual(3)
  })
})

describe('random reads', () => {
  it('runs N processes, each doing its count of reads', () => {
    const r = run([
      { name: 'rr', type: 'random-read', params: { processes: 4, count: 50, size: '256M', direct: true } },
    ])
    expect(r.processes.map((p) => [p.name, p.ops])).toEqual([
      ['rr/0', 50],
      ['rr/1', 50],
      ['rr/2', 50],
      ['rr/3', 50],
    ])
  })

  it('dirties a share of the blocks it reads', () => {
    const r = run([
      { name: 'rr', type: 'random-read', params: { count: 400, size: '256M', dirtyShare: 0.25 } },
    ])
    const p = r.processes[0]
    expect(p.writeBytes / 4096).toBeGreaterThan(70)
    expect(p.writeBytes / 4096).toBeLessThan(130)
  })
})

describe('lmdd', () => {
  it('writes from its internal source and reads to its internal sink, with no pipe cost', () => {
    const w = run([
      { name: 'w', type: 'lmdd', params: { if: 'internal', of: 'f', bs: '128k', count: 40, fsync: true } },
    ])
    expect(w.processes[0]).toMatchObject({ bytes: 40 * 131072, ops: 41, finished: true }) // 40 writes + fsync
    expect(w.totals.writeBytes).toBe(40 * 131072)
    const r = run([{ name: 'r', type: 'lmdd', params: { if: 'f', of: 'internal', bs: '128k', count: 40 } }])
    expect(r.processes[0].readBytes).toBe(40 * 131072)
  })

  it('refuses a copy with no file or two files', () => {
    expect(() => run([{ name: 'x', type: 'lmdd', params: { if: 'a', of: 'b' } }])).toThrow(
      /workload\.processes\[0\]\.params\.of: file-to-file copies are not modelled/,
    )
    expect(() => run([{ name: 'x', type: 'lmdd', params: {} }])).toThrow(
      /params\.if: one side must be a file/,
    )
  })
})

describe('iozone', () => {
  it('reports write, rewrite, read and reread passes, each over the whole file', () => {
    const r = run(
      [{ name: 'io', type: 'iozone', params: { tests: '0,1', record: '1M', size: '16M', direct: true } }],
      {},
      slowNull,
    )
    const phases = r.processes[0].phases!
    expect(phases.map((p) => p.name)).toEqual(['write', 'rewrite', 'read', 'reread'])
    for (const p of phases) expect(p.bytes).toBe(16 * 2 ** 20)
    // O_DIRECT: each 1 MiB record is two 512 KiB commands of 1 ms served side by side
    for (const p of phases) expect(p.seconds).toBeCloseTo(0.016, 3)
    expect(r.totals.readBytes).toBe(32 * 2 ** 20)
  })

  it('includes the flush in a buffered write pass only with -e', () => {
    const time = (flush: boolean) =>
      run(
        [{ name: 'io', type: 'iozone', params: { tests: '0', record: '1M', size: '16M', flush } }],
        {},
        serialNull,
      ).processes[0].phases![0].seconds
    expect(time(true)).toBeGreaterThan(10 * time(false))
  })
})

describe('trace replay', () => {
  const trace = [
    '  8,0 0 1 0.000000 100 Q R 1000 + 8 [a]',
    '  8,0 0 2 0.000000 100 D R 1000 + 8 [a]',
    '  8,0 0 3 0.003000 0 C R 1000 + 8 [0]',
    '  8,0 0 4 0.010000 200 Q W 50000 + 16 [b]',
    '  8,0 0 5 0.020000 100 Q R 1008 + 8 [a]',
    '  8,0 0 6 0.020000 100 D R 1008 + 8 [a]',
    '  8,0 0 7 0.021000 0 C R 1008 + 8 [0]',
  ].join('\n')

  it('issues each traced process’s I/O at the recorded times and keeps the measured D→C times', () => {
    const r = run([{ name: 't', type: 'trace-replay', params: { trace } }], {}, slowNull)
    expect(r.processes.map((p) => p.name)).toEqual(['t/100', 't/200'])
    expect(r.dispatches.tMs.map(Math.round)).toEqual([0, 10, 20]) // plus a microsecond of system call
    expect(r.dispatches.sector).toEqual([1000, 50000, 1008])
    expect(r.dispatches.op).toEqual([0, 1, 0])
    expect(r.measuredServiceLatency?.count).toBe(2)
    expect(r.serviceLatency.count).toBe(3)
  })

  it('stretches time with timeScale and refuses a trace that does not fit', () => {
    const r = run([{ name: 't', type: 'trace-replay', params: { trace, timeScale: 2 } }], {}, slowNull)
    expect(r.dispatches.tMs.map(Math.round)).toEqual([0, 20, 40])
    expect(() =>
      run([
        { name: 't', type: 'trace-replay', params: { trace: '  8,0 0 1 0.0 1 Q R 999999999999 + 8 [x]' } },
      ]),
    ).toThrow(/params\.trace: the trace reaches sector/)
    expect(() => run([{ name: 't', type: 'trace-replay', params: { trace: 'hello' } }])).toThrow(
      /no Q \(queued\) events/,
    )
  })
})

describe('kbuild-like make -j', () => {
  const build = (jobs: number) =>
    simulate(
      resolveSpec({
        device: { preset: 'hdd-7200-sata' },
        host: { overrides: { cpus: 2 } },
        workload: {
          processes: [
            { name: 'make', type: 'kbuild', params: { jobs, units: 60, computeMs: 20, headers: 100 } },
          ],
        },
        schedulers: ['deadline'],
      }),
      0,
      0,
    ).processes[0]

  it('compiles every unit in a short-lived process: sources and headers read, objects written', () => {
    const p = build(2)
    expect(p.finished).toBe(true)
    expect(p.readBytes).toBe(60 * 16 * 1024 + 60 * 30 * 8 * 1024)
    expect(p.writeBytes).toBe(60 * 24 * 1024)
    // the children's CPU is counted: 60 units × 20 ms at least
    expect(p.cpuSeconds).toBeGreaterThan(1.2)
  })

  it('overlaps compilation on two CPUs with -j2, not with -j1', () => {
    const j1 = build(1)
    const j2 = build(2)
    expect(j1.seconds / j2.seconds).toBeGreaterThan(1.6)
  })
})
