import { describe, expect, it } from 'vitest'
import { parseBlkparseEvents } from '../../src/shared/formats/blkparse'
import { parseBlkparseLine } from '../../src/shared/formats/blkparse-line'
import { TraceStages } from '../../src/shared/experiment/trace-stages'
import type { TraceStagesOptions } from '../../src/shared/experiment/trace-stages'
import { ownerNamer } from '../../src/shared/experiment/trace-owners'
import type { ProcessStages } from '../../src/shared/metrics/why'
import { parseFtraceBlockLine } from '../../src/shared/formats/ftrace-block-line'
import { importText } from '../../src/shared/import/import-text'
import type { RequestRecord } from '../../src/shared/experiment/request-tap'
import { expectStagesAddUp } from '../helpers/requests-add-up'

// Two fio jobs (threads, both "fio" in the trace), a kworker writing back, a request queued before
// tracing began, a back merge, a split whose rest is queued again, and an empty flush that bypasses
// the scheduler (no I) and is dispatched by the flush machinery. Times in µs in the comments.
export const TRACE = `  7,3    0        1     0.000050000    30  D   R 500 + 8 [kworker/0:1H]
  7,3    0        0     0.000090000     0  m   N iosched-lab start
  7,3    0        2     0.000100000   100  Q   R 8 + 8 [fio]
  7,3    0        3     0.000110000   100  G   R 8 + 8 [fio]
  7,3    0        4     0.000120000   100  P   N [fio]
  7,3    0        5     0.000150000   100  I   R 8 + 8 [fio]
  7,3    0        6     0.000151000   100  UT  N [fio] 1
  7,3    0        7     0.000300000     0  C   R 500 + 8 [0]
  7,3    0        8     0.000400000   100  D   R 8 + 8 [fio]
  7,3    0        9     0.001400000     0  C   R 8 + 8 [0]
  7,3    1        1     0.002000000   200  Q   W 1000 + 8 [fio]
  7,3    1        2     0.002010000   200  G   W 1000 + 8 [fio]
  7,3    1        3     0.002020000   200  Q   W 1008 + 8 [fio]
  7,3    1        4     0.002021000   200  M   W 1008 + 8 [fio]
  7,3    1        5     0.002100000   200  I   W 1000 + 16 [fio]
  7,3    1        6     0.002200000   200  D   W 1000 + 16 [fio]
  7,3    1        7     0.003200000     0  C   W 1000 + 16 [0]
  7,3    1        8     0.004000000   200  Q   W 2000 + 512 [fio]
  7,3    1        9     0.004001000   200  X   W 2000 / 2256 [fio]
  7,3    1       10     0.004002000   200  G   W 2000 + 256 [fio]
  7,3    1       11     0.004003000   200  I   W 2000 + 256 [fio]
  7,3    1       12     0.004004000   200  D   W 2000 + 256 [fio]
  7,3    1       13     0.004005000   200  Q   W 2256 + 256 [fio]
  7,3    1       14     0.004006000   200  G   W 2256 + 256 [fio]
  7,3    1       15     0.004007000   200  I   W 2256 + 256 [fio]
  7,3    1       16     0.004008000   200  D   W 2256 + 256 [fio]
  7,3    1       17     0.005000000     0  C   W 2000 + 256 [0]
  7,3    1       18     0.006000000     0  C   W 2256 + 256 [0]
  7,3    0       10     0.007000000   100  Q FWS [fio]
  7,3    0       11     0.007001000   100  G FWS [fio]
  7,3    0       12     0.007010000    30  D  FN [kworker/0:1H]
  7,3    0       13     0.007500000     0  C  FN [0]
  7,3    0       14     0.007501000     0  C FWS [0]
  7,3    1       19     0.008000000    50  Q  WS 1500 + 8 [kworker/u4:2]
  7,3    1       20     0.008001000    50  G  WS 1500 + 8 [kworker/u4:2]
  7,3    1       21     0.008002000    50  I  WS 1500 + 8 [kworker/u4:2]
  7,3    1       22     0.008003000    50  D  WS 1500 + 8 [kworker/u4:2]
  7,3    1       23     0.008503000     0  C  WS 1500 + 8 [0]
CPU0 (7,3):
 Reads Queued:           2,        8KiB	 Writes Queued:           1,        4KiB
`

const US = 1000

/** A run's trace as the lab reads it: from its start mark, fio's reader on sectors 0–999, its writer on 1000–2999. */
const traceOf = (o: TraceStagesOptions = {}): TraceStages =>
  new TraceStages({
    anchor: 'iosched-lab start',
    nameOf: ownerNamer({
      engineComm: 'fio',
      owners: [
        { process: 'reader', startSector: 0, endSector: 1000, writes: false },
        { process: 'writer/0', startSector: 1000, endSector: 3000, writes: true },
      ],
    }),
    ...o,
  })

function stagesOf(text: string): {
  why: ReturnType<TraceStages['finish']>
  byName: Map<string, ProcessStages>
} {
  const t = traceOf()
  for (const e of parseBlkparseEvents(text)) t.add(e)
  const why = t.finish()
  return { why, byName: new Map(why.why.processes.map((p) => [p.process, p])) }
}

describe('request stages from a blktrace', () => {
  it('reads every action of blkparse’s default output, messages, splits and flushes without data', () => {
    expect(
      parseBlkparseLine('  7,3    1        9     0.004001000   200  X   W 2000 / 2256 [fio]', 1),
    ).toMatchObject({
      action: 'X',
      sector: 2000,
      nsect: 256,
      splitAt: 2256,
      process: 'fio',
    })
    expect(
      parseBlkparseLine('  7,3    0        0     0.000090000     0  m   N iosched-lab start', 2),
    ).toMatchObject({ action: 'm', message: 'iosched-lab start', ns: 90 * US })
    expect(parseBlkparseLine('  7,3    0       10     0.007000000   100  Q FWS [fio]', 3)).toMatchObject({
      sector: -1,
      nsect: 0,
      rwbs: 'FWS',
      process: 'fio',
    })
    expect(parseBlkparseLine('  7,3    0        6     0.000151000   100  UT  N [fio] 1', 4)).toMatchObject({
      action: 'UT',
    })
    // nanoseconds exactly, however long the trace
    expect(parseBlkparseLine('  8,0  0  1  86399.123456789  1  Q  R 1 + 8 [x]', 5)!.ns).toBe(86399123456789)
    expect(() => parseBlkparseLine('  7,3  0  1  0.1  42  X  W 2000 / 1000 [fio]', 7)).toThrow(
      /line 7: split at 1000 is not after its start 2000/,
    )
    expect(() => parseBlkparseLine('  7,3  0  1  0.1  42  M  W twelve [fio]', 8)).toThrow(
      /line 8: expected "sector \+ nsectors" after "M W"/,
    )
  })

  it('gives each process btt’s stages, requests matched by merge, split and flush', () => {
    const { byName } = stagesOf(TRACE)
    expect([...byName.keys()]).toEqual(['reader', 'writer', 'flush'])
    const reader = byName.get('reader')!
    // the read (Q2G 10, G2I 40, I2D 250, D2C 1000 µs) and the flush: no I, so I = D (G2I 9, I2D 0)
    expect(reader).toMatchObject({ requests: 2, readRequests: 1, writeRequests: 1, merged: 0 })
    expect(reader.stages.q2g).toMatchObject({ min: 1 * US, max: 10 * US })
    expect(reader.stages.g2i).toMatchObject({ min: 9 * US, max: 40 * US })
    expect(reader.stages.i2d).toMatchObject({ min: 0, max: 250 * US })
    expect(reader.stages.d2c).toMatchObject({ min: 490 * US, max: 1000 * US })
    expect(reader.stages.q2c).toMatchObject({ min: 500 * US, max: 1300 * US })
    const writer = byName.get('writer')!
    // the merged request (1000 + 16), and the split's two parts: the rest keeps the first Q
    expect(writer).toMatchObject({ requests: 3, writeRequests: 3, merged: 1 })
    expect(writer.stages.q2c).toMatchObject({ min: 1000 * US, max: 2000 * US, sum: 4200 * US })
    expect(writer.stages.q2g).toMatchObject({ min: 2 * US, max: 10 * US, sum: 18 * US })
    expect(writer.stages.g2i.sum).toBe((90 + 1 + 1) * US)
    expect(writer.stages.d2c.sum).toBe((1000 + 996 + 1992) * US)
    expect(byName.get('flush')).toMatchObject({ requests: 1, writeRequests: 1 })
    for (const p of byName.values()) {
      const s = p.stages
      expect(s.q2g.sum + s.g2i.sum + s.i2d.sum + s.d2c.sum).toBe(s.q2c.sum)
      expect(s.q2c.count).toBe(p.requests)
    }
  })

  it('counts batches, seeks and travel per process in dispatch order, as the simulator does', () => {
    const { why, byName } = stagesOf(TRACE)
    // D order: 500+8 (before tracing: no owner), 8+8 reader, 1000+16, 2000+256, 2256+256 writer, 1500+8 flush
    expect(byName.get('reader')).toMatchObject({ batches: 1, seeks: 1, travelSectors: 500 })
    expect(byName.get('writer')).toMatchObject({ batches: 1, seeks: 2, travelSectors: 984 + 984 })
    expect(byName.get('flush')).toMatchObject({ batches: 1, seeks: 1, travelSectors: 1012 })
    expect(why.seeks).toBe(4)
    expect(why.meanSeekSectors).toBe((500 + 984 + 984 + 1012) / 4)
    expect(why.why.source).toBe('blktrace')
    expect(why.why.missing).toContain(
      '1 requests queued before tracing began have no stages (their Q is not in the trace)',
    )
    expect(why.why.processes.every((p) => p.idle === undefined && p.device === undefined)).toBe(true)
  })

  it('times dispatches from the start mark, and bins each process’s bytes in the run’s bins', () => {
    const { why } = stagesOf(TRACE)
    // the dispatch before the mark is before the run
    expect(why.dispatches.tMs).toEqual([0.31, 2.11, 3.914, 3.918, 7.913])
    expect(why.dispatches.sector).toEqual([8, 1000, 2000, 2256, 1500])
    expect(why.dispatches.op).toEqual([0, 1, 1, 1, 1])
    const series = why.processSeries([0, 5], 5)
    const mb = (name: string): number => {
      const s = series.find((x) => x.name === name)!
      return (s.readMBps[0] + s.writeMBps[0]) * 0.005 + (s.readMBps[1] + s.writeMBps[1]) * 0.005
    }
    expect(series.map((s) => s.name)).toEqual(['reader', 'writer/0', 'flush'])
    expect(mb('reader')).toBeCloseTo((8 * 512) / 1e6, 9)
    expect(mb('writer/0')).toBeCloseTo(((16 + 512) * 512) / 1e6, 9)
    expect(mb('flush')).toBeCloseTo((8 * 512) / 1e6, 9)
  })

  it('names pids by their command without an owner list, and says where a trace was cut', () => {
    const t = new TraceStages({ maxEvents: 12 })
    for (const e of parseBlkparseEvents(TRACE)) t.add(e)
    const r = t.finish(['the note of the caller'])
    expect(r.why.processes.map((p) => p.process)).toEqual(['fio'])
    expect(r.why.missing?.[0]).toBe('the note of the caller')
    expect(r.why.missing?.join('\n')).toMatch(/cut after 12 events \(0\.002 s into the run\)/)
  })
})

describe('the same events from the kernel’s block tracepoints (tracefs)', () => {
  // the fallback where blktrace's relay files are refused: trace_pipe lines, include/trace/events/block.h
  const FTRACE = `# tracer: nop
            node-77      [000] ..... 11979.100000: tracing_mark_write: iosched-lab start
             fio-8930    [001] ..... 11979.150865: block_bio_queue: 7,3 RA 4000 + 24 [fio]
             fio-8930    [001] ..... 11979.150870: block_getrq: 7,3 RA 4000 + 24 [fio]
             fio-8930    [001] ...1. 11979.150882: block_rq_insert: 7,3 RA 12288 () 4000 + 24 be,0,4 [fio]
             fio-8930    [001] ..... 11979.150888: block_rq_issue: 7,3 RA 12288 () 4000 + 24 be,0,4 [fio]
          <idle>-0       [001] ..s1. 11979.151092: block_rq_complete: 7,3 RA () 4000 + 24 be,0,4 [0]
             fio-8931    [000] ..... 11979.152000: block_bio_queue: 7,3 WFS 0 + 0 [fio]
             fio-8931    [000] ..... 11979.152001: block_split: 7,3 W 64 / 72 [fio]
`
  it('reads them as blktrace’s actions, and gives the same stages', () => {
    const events = FTRACE.split('\n')
      .map((l, i) => parseFtraceBlockLine(l, i + 1))
      .filter((e) => e !== null)
    expect(events.map((e) => `${e.action} ${e.dev} ${e.sector}+${e.nsect} ${e.pid} ${e.process}`)).toEqual([
      'm  -1+0 77 node',
      'Q 7,3 4000+24 8930 fio',
      'G 7,3 4000+24 8930 fio',
      'I 7,3 4000+24 8930 fio',
      'D 7,3 4000+24 8930 fio',
      'C 7,3 4000+24 0 0',
      'Q 7,3 -1+0 8931 fio',
      'X 7,3 64+8 8931 fio',
    ])
    expect(events[0].message).toBe('iosched-lab start')
    expect(events[1].ns).toBe(11979150865000)
    const t = new TraceStages({ anchor: 'iosched-lab start' })
    for (const e of events) t.add(e)
    const r = t.finish([], 'tracefs')
    // the result says what traced it: not blktrace
    expect(r.why.source).toBe('tracefs')
    expect(r.why.processes[0]).toMatchObject({ process: 'fio', requests: 1, readRequests: 1 })
    expect(r.why.processes[0].stages.q2c.sum).toBe(227 * US)
    expect(r.why.processes[0].stages.d2c.sum).toBe(204 * US)
    expect(r.dispatches.tMs).toEqual([50.888])
    expect(() => parseFtraceBlockLine('  fio-1 [000] ..... 1.000001: block_rq_issue: 7,3 R what', 9)).toThrow(
      /line 9: cannot read the sectors of block_rq_issue/,
    )
  })
})

describe('an imported blkparse trace', () => {
  it('has the stages of its processes, named by their command', () => {
    const { run } = importText(TRACE, 'trace.txt').runs[0]
    expect(run.why?.source).toBe('blktrace')
    expect(run.why?.processes.map((p) => [p.process, p.requests])).toEqual([
      ['fio', 5],
      ['kworker', 1],
    ])
  })
})

describe('a trace whose CPUs’ clocks differ (tracefs’s `local` clock)', () => {
  // A loop device on two CPUs whose trace clocks differ: CPU 1's runs 30 µs behind CPU 0's. The
  // reader and the writer queue and insert on CPU 0; a kworker on CPU 1 issues a request, and a
  // completion in CPU 1's loop worker is stamped before its issue on CPU 0. µs in the comments.
  const line = (comm: string, cpu: number, us: number, event: string, what: string): string =>
    `${comm.padStart(16)} [00${cpu}] ..... ${(100 + us / 1e6).toFixed(6)}: ${event}: 7,0 ${what}`
  const rq = (rwbs: string, sector: number, n: number): string =>
    `${rwbs} ${n * 512} () ${sector} + ${n} be,0,4`
  /** A request's events: queued, got and inserted on CPU 0 at q, g, i; issued and completed as [CPU, µs, by]. */
  type At = [number, number, string]
  const cycle = (
    who: string,
    rwbs: string,
    sector: number,
    [q, g, i]: number[],
    d: At,
    c: At,
  ): [number, string][] => [
    [q, line(who, 0, q, 'block_bio_queue', `${rwbs} ${sector} + 8 [fio]`)],
    [g, line(who, 0, g, 'block_getrq', `${rwbs} ${sector} + 8 [fio]`)],
    [i, line(who, 0, i, 'block_rq_insert', `${rq(rwbs, sector, 8)} [fio]`)],
    [d[1], line(d[2], d[0], d[1], 'block_rq_issue', `${rq(rwbs, sector, 8)} [fio]`)],
    [c[1], line(c[2], c[0], c[1], 'block_rq_complete', `${rwbs} () ${sector} + 8 be,0,4 [0]`)],
  ]
  const kworker = 'kworker/1:1H-50'
  const loop = 'kworker/u4:2-60'
  const idle = '<idle>-0'
  // each request: its events in the order they happened, stamped by the CPU that traced them
  const requests = [
    // issued on CPU 1 at 120, stamped 90
    cycle('fio-9001', 'R', 8, [100, 102, 104], [1, 90, kworker], [0, 300, idle]),
    // issued on CPU 0 at 420, completed on CPU 1 at 445, stamped 415
    cycle('fio-9002', 'W', 1200, [400, 401, 402], [0, 420, 'fio-9002'], [1, 415, loop]),
    // inserted at 1050 (a plug flushed), issued on CPU 1 at 1060, stamped 1030
    cycle('fio-9001', 'R', 16, [1000, 1002, 1050], [1, 1030, kworker], [0, 1200, idle]),
    // the same sector read again, every event on CPU 0
    cycle('fio-9001', 'R', 16, [2000, 2002, 2004], [0, 2010, 'fio-9001'], [0, 2100, idle]),
    // issued on CPU 0 at 3050, completed on CPU 1 at 3070, stamped 3040
    cycle('fio-9002', 'W', 2000, [3000, 3001, 3002], [0, 3050, 'fio-9002'], [1, 3040, loop]),
    // the same sector written again, every event on CPU 0
    cycle('fio-9002', 'W', 2000, [4000, 4001, 4002], [0, 4010, 'fio-9002'], [0, 4100, idle]),
  ]
  const mark = line('node-77', 0, 0, 'tracing_mark_write', '').replace(': 7,0 ', ': iosched-lab start')
  // read as they happen (trace_pipe's reader keeping up) …
  const live = [mark, ...requests.flat().map(([, l]) => l)].join('\n')
  // … or printed in time order (blkparse; trace_pipe merging the CPUs' buffers when its reader lags)
  const sorted = [
    mark,
    ...requests
      .flat()
      .sort((a, b) => a[0] - b[0])
      .map(([, l]) => l),
  ].join('\n')

  const read = (text: string) => {
    const records: RequestRecord[] = []
    const t = traceOf({ requests: (x) => records.push(x) })
    const lines = text.split('\n')
    lines.forEach((l, k) => {
      const e = parseFtraceBlockLine(l, k + 1)
      if (e) t.add(e)
    })
    return { why: t.finish([], 'tracefs').why, records }
  }

  it.each([
    ['read live', live],
    ['printed in time order', sorted],
  ])('matches every request and its stages add up to its Q2C, %s', (_, text) => {
    expect(sorted).not.toBe(live)
    const { why, records } = read(text)
    // an event stamped before the one it follows counts as at that one: its stage is 0
    expect(records.map((x) => [x.process, x.q2g, x.g2i, x.i2d, x.d2c, x.q2c].join(' '))).toEqual(
      [
        ['reader', 2, 2, 0, 196, 200],
        ['writer', 1, 1, 18, 0, 20],
        ['reader', 2, 48, 0, 150, 200],
        ['reader', 2, 2, 6, 90, 100],
        ['writer', 1, 1, 48, 0, 50],
        ['writer', 1, 1, 8, 90, 100],
      ].map(([p, ...us]) => [p, ...(us as number[]).map((v) => v * US)].join(' ')),
    )
    expectStagesAddUp(why, records)
    for (const p of why.processes) {
      const s = p.stages
      expect(s.q2g.sum + s.g2i.sum + s.i2d.sum + s.d2c.sum, p.process).toBe(s.q2c.sum)
    }
    expect(why.missing).toContain(
      "4 requests had an event stamped before the one it follows (the CPUs' trace clocks differ): it counts as at that one, its stage 0",
    )
    // nothing left in flight, nothing taken for a request queued before tracing began
    expect(why.missing?.join('\n')).not.toMatch(/not completed|before tracing began|no start mark/)
  })
})
