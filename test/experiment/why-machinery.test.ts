// The explanation names the kernel machinery added for the simulator's fidelity (issue 13) when
// its figures show it made the difference: a lower I/O priority class held behind a higher one —
// in the loop device's scheduler or at the disk under it (backingIoprio) —, blk-mq's delayed run
// of a declined queue, the loop worker held by a flush, and EEVDF's wake-up preemption by lag.
// The workloads are those of the probe matrix (bench/validate-probe-matrix.json: the ionice'd
// reader, the real-time reader beside a deep writer, the reader beside an fsync writer) on the
// loop preset, each cut to a job of fixed size.
import { describe, expect, it } from 'vitest'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { simulate } from '../../src/shared/experiment/runner'
import { explain, explainPair } from '../../src/shared/experiment/explain'
import type { Explanation } from '../../src/shared/experiment/explain'
import type { RunResult } from '../../src/shared/experiment/result'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'
import type { ProcessStages, StageName } from '../../src/shared/metrics/why'
import { whyText } from '../../src/shared/report/why-text'
import { decisionRows, MECHANISM_NAME } from '../../src/shared/report/why-figures'
import { htmlReport } from '../../src/shared/report/html'
import { reportInput } from '../../src/shared/report/input'
import { num } from '../../src/shared/util/people-numbers'

type Params = Record<string, unknown>
const fio = (rw: string, extra: Params = {}): Params => ({
  rw,
  bs: '4k',
  ioengine: 'psync',
  direct: true,
  filename: '/dev',
  size: '256M',
  time_based: true,
  runtime: 10,
  ...extra,
})
/** A job of fixed size (the process the explanation is about, and the one the run stops for). */
const sized = (rw: string, size: string, extra: Params = {}): Params => {
  const { time_based: _t, runtime: _r, ...p } = fio(rw, { size, ...extra })
  return p
}

interface Setup {
  processes: unknown[]
  stop: string
  schedulers?: string[]
  /** The device preset (default: the loop device's) and its overrides. */
  preset?: string
  device?: Params
  host?: Params
}

function runs(s: Setup, label?: string): RunResult[] {
  const spec = resolveSpec({
    device: { preset: s.preset ?? 'loop-dio-virtio', overrides: s.device ?? {} },
    host: { preset: 'linux-modern', overrides: s.host ?? {} },
    workload: { processes: s.processes, stop: { processes: [s.stop], maxSeconds: 5 } },
    schedulers: s.schedulers ?? ['none'],
  })
  return spec.schedulers.map((_, i) => {
    const r = simulate(spec, i)
    return label === undefined ? r : { ...r, label }
  })
}

/** Two variants of one setup, explained for `process`: the worse first, as a gallery entry pairs them. */
function variants(process: string, worse: [string, Setup], better: [string, Setup]) {
  const w = runs(worse[1], worse[0])
  const b = runs(better[1], better[0])
  const e = explainPair(process, { label: worse[0], runs: w }, { label: better[0], runs: b })!
  return { worse: w, better: b, e }
}

const stagesOf = (r: RunResult, name: string): ProcessStages =>
  r.why!.processes.find((p) => p.process === name)!
const sum = (s: ProcessStages, k: StageName): number => LatencyHistogram.fromJSON(s.stages[k]).sum
const runOf = (rs: readonly RunResult[], label: string): RunResult => rs.find((r) => r.label === label)!

/** The explanation as `run`'s text shows it: its mechanism named. */
function expectShown(rs: RunResult[], e: Explanation): void {
  expect(whyText(rs, e.process)).toContain(`why (${MECHANISM_NAME[e.mechanism]}):`)
}

describe('the machinery the explanation names', () => {
  it('a lower class held in the loop device’s mq-deadline behind a real-time reader', () => {
    // the probe matrix's rt-reader-vs-deep-writer, explained for the writer
    const rs = runs({
      processes: [
        { name: 'rt', type: 'fio', ioClass: 'rt', ioLevel: 4, params: fio('randread') },
        {
          name: 'writer',
          type: 'fio',
          params: sized('randwrite', '8m', { iodepth: 64, ioengine: 'libaio' }),
        },
      ],
      stop: 'writer',
      schedulers: ['none', 'mq-deadline'],
    })
    const e = explain(rs, 'writer')!
    expect(e).toMatchObject({ best: 'none', worst: 'mq-deadline', mechanism: 'class-priority' })
    const w = stagesOf(runOf(rs, 'mq-deadline'), 'writer')
    const held = w.waits!.classHeld!
    // the holding is time in the scheduler: within its I2D, and most of that stage
    expect(held.ns).toBeLessThanOrEqual(sum(w, 'i2d'))
    expect(held.ns).toBeGreaterThan(0.5 * sum(w, 'i2d'))
    expect(held.requests).toBeLessThanOrEqual(w.requests)
    // none holds nothing in its scheduler
    expect(stagesOf(runOf(rs, 'none'), 'writer').waits?.classHeld).toBeUndefined()
    expect(e.text).toContain(`${num(held.requests)} requests, `)
    expect(e.text).toContain(`${num(held.ns / 1e9)} s summed over them under mq-deadline`)
    expectShown(rs, e)
    // the HTML report: the mechanism named, and the holding in the decisions table
    const html = htmlReport(
      reportInput({
        schema: 'iosched-lab/experiment@1',
        name: 'class',
        spec: { workload: { stop: { processes: ['writer'] } } },
        runs: rs,
        startedAt: '2026-12-06T00:00:00Z',
        wallSeconds: 1,
      }),
    )
    expect(html).toContain('data-mechanism="class-priority"')
    expect(html).toContain(`<b>${MECHANISM_NAME['class-priority']}</b>`)
    expect(html).toContain('<th>class held, ms</th>')
  })

  it('an idle-class reader held at the disk under the loop device, its priority handed down', () => {
    // the probe matrix's idle-reader-vs-reader: beside a best-effort reader, under none at the loop
    // device, with the priority handed down to the backing disk's mq-deadline or not
    const setup = (backingIoprio: string): Setup => ({
      processes: [
        { name: 'idle', type: 'fio', ioClass: 'idle', params: sized('randread', '256k', { thinktime: 20 }) },
        { name: 'fg', type: 'fio', params: fio('randread', { iodepth: 2, ioengine: 'libaio' }) },
      ],
      stop: 'idle',
      device: { backingIoprio },
    })
    const {
      worse: down,
      better: dropped,
      e,
    } = variants('idle', ['handed down', setup('request')], ['dropped', setup('none')])
    expect(e).toMatchObject({ best: 'dropped', worst: 'handed down', mechanism: 'class-priority' })
    const w = stagesOf(down[0], 'idle')
    const held = w.waits!.backingClassHeld!
    // held at the disk: inside the loop device's D2C, and most of it
    expect(held.ns).toBeLessThanOrEqual(sum(w, 'd2c'))
    expect(held.ns).toBeGreaterThan(0.5 * sum(w, 'd2c'))
    expect(stagesOf(dropped[0], 'idle').waits).toBeUndefined()
    expect(e.text).toContain('the disk under the loop device')
    expect(e.text).toContain(`${num(held.ns / 1e9)} s summed over them under handed down`)
    expectShown([...down, ...dropped], e)
  })

  it('blk-mq’s delayed run: an idle-class read the completion of the higher class leaves queued', () => {
    // a best-effort reader that thinks between reads: the idle read is held while one is in flight,
    // then waits for the queue's next run — the tick's delayed run, or the next insertion
    const rs = runs({
      processes: [
        { name: 'idle', type: 'fio', ioClass: 'idle', params: sized('randread', '256k', { thinktime: 20 }) },
        { name: 'fg', type: 'fio', params: fio('randread', { thinktime: 200 }) },
      ],
      stop: 'idle',
      schedulers: ['none', 'mq-deadline'],
      device: { backingIoprio: 'none' },
    })
    const e = explain(rs, 'idle')!
    expect(e).toMatchObject({ best: 'none', worst: 'mq-deadline', mechanism: 'delayed-run' })
    const r = runOf(rs, 'mq-deadline')
    const w = stagesOf(r, 'idle')
    const { classHeld, delayedRun } = w.waits!
    // the wait for a run is part of the holding, the holding part of I2D; and it is most of it
    expect(delayedRun!.ns).toBeLessThanOrEqual(classHeld!.ns)
    expect(classHeld!.ns).toBeLessThanOrEqual(sum(w, 'i2d'))
    expect(delayedRun!.ns).toBeGreaterThan(0.5 * classHeld!.ns)
    const runsOf = r.why!.events!.delayedRun!
    expect(runsOf.count).toBeGreaterThan(0)
    // each delayed run fires on a tick, 3 ms after the decline at HZ 250 (0–4 ms: mq-runs.ts)
    expect(runsOf.ns / runsOf.count).toBeLessThanOrEqual(4e6)
    expect(e.text).toContain(`delayed runs: ${num(runsOf.count)}, `)
    expect(e.text).toContain(`${num(delayedRun!.ns / 1e9)} s summed over them under mq-deadline`)
    expectShown(rs, e)
  })

  it('a reader queued behind the loop worker’s flushes', () => {
    // the probe matrix's reader-vs-fsync-writer, with the loop preset's measured flush and without
    const setup = (flushUs?: string): Setup => ({
      processes: [
        { name: 'reader', type: 'fio', params: sized('randread', '1m') },
        { name: 'writer', type: 'fio', params: fio('randwrite', { fsync: 1, direct: false }) },
      ],
      stop: 'reader',
      device: flushUs === undefined ? {} : { flushUs },
    })
    const {
      worse: flushing,
      better: none,
      e,
    } = variants('reader', ['flushing', setup()], ['no flush', setup('')])
    expect(e).toMatchObject({ best: 'no flush', worst: 'flushing', mechanism: 'loop-flush' })
    const w = stagesOf(flushing[0], 'reader')
    const behind = w.waits!.behindFlush!
    expect(behind.ns).toBeLessThanOrEqual(sum(w, 'd2c'))
    // the reader's device time grew by about its waits behind the flushes
    const grew = sum(w, 'd2c') - sum(stagesOf(none[0], 'reader'), 'd2c')
    expect(behind.ns).toBeGreaterThan(0.5 * grew)
    const flushes = flushing[0].why!.events!.flush!
    expect(behind.requests).toBeLessThanOrEqual(flushes.count + w.requests)
    // no request waits behind a flush longer than the flush held the worker, in all
    expect(behind.ns).toBeLessThanOrEqual(flushes.ns * w.requests)
    expect(none[0].why!.events?.flush).toBeUndefined()
    expect(e.text).toContain(`flushes in the run: ${num(flushes.count)}, `)
    expectShown([...flushing, ...none], e)
    // the app's and the report's decisions table: the wait where there was one, none where not
    const rows = decisionRows([...flushing, ...none], ['flushing', 'no flush'], 'reader')
    expect(rows.map((r) => r.flushWaitMs)).toEqual([behind.ns / 1e6, null])
  })

  it('EEVDF’s preemption on wake-up: a reader woken with lag takes the CPU from a hog, or not', () => {
    // one CPU shared with a CPU hog; niced to 19 the reader comes back from its reads with less lag
    // (it ran its share, weighted), so fewer wake-ups preempt the hog within its slice
    const setup = (nice: number): Setup => ({
      processes: [
        { name: 'reader', type: 'fio', nice, params: sized('randread', '1m') },
        { name: 'hog', type: 'cpu-hog', params: {} },
      ],
      stop: 'reader',
      host: { cpus: 1, cpuPolicy: 'eevdf', minGranularityMs: 1.5, wakePacking: true, hz: 250, wakeUs: 8.053 },
      preset: 'nvme-tlc',
    })
    const {
      worse: niced,
      better: plain,
      e,
    } = variants('reader', ['nice 19', setup(19)], ['nice 0', setup(0)])
    expect(e).toMatchObject({ best: 'nice 0', worst: 'nice 19', mechanism: 'lag-preemption' })
    const lw = stagesOf(niced[0], 'reader').lag!
    const lb = stagesOf(plain[0], 'reader').lag!
    for (const l of [lw, lb]) {
      expect(l.preempts).toBeLessThanOrEqual(l.busyWakeups)
      expect(l.busyWakeups).toBeLessThanOrEqual(niced[0].processes[0].ops + 1)
    }
    expect(lw.preempts / lw.busyWakeups).toBeLessThan(lb.preempts / lb.busyWakeups)
    expect(e.text).toContain(`${num(lw.preempts)} of ${num(lw.busyWakeups)} times`)
    expect(e.text).toContain(`${num(niced[0].processes[0].time!.runnable)} s runnable under nice 19`)
    expectShown([...niced, ...plain], e)
  })
})
