import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { simulate } from '../../src/shared/experiment/runner'
import { explain, rowName } from '../../src/shared/experiment/explain'
import { whyText } from '../../src/shared/report/why-text'
import { MECHANISM_NAME } from '../../src/shared/report/why-figures'
import type { RunResult } from '../../src/shared/experiment/result'

const flagship = JSON.parse(
  readFileSync(new URL('../../examples/streaming-read-under-write-2003.json', import.meta.url), 'utf8'),
)
const spec = resolveSpec({ ...flagship, schedulers: ['deadline', 'anticipatory'] })
const runs = spec.schedulers.map((_, i) => simulate(spec, i))

/** A run as if measured: the same figures, marked real, without the simulator's time split. */
const asReal = (r: RunResult, scale: number): RunResult => ({
  ...r,
  source: 'real',
  processes: r.processes.map((p) => ({ ...p, seconds: p.seconds * scale, time: undefined })),
})

describe('explain', () => {
  it('names the worse and the better scheduler for the process, with figures from the runs', () => {
    const e = explain(runs, 'reader')!
    expect(e).toMatchObject({ process: 'reader', metric: 'seconds', best: 'anticipatory', worst: 'deadline' })
    const reader = (l: string) => runs.find((r) => r.label === l)!.processes.find((p) => p.name === 'reader')!
    expect(e.text).toContain(`took ${Number(reader('deadline').seconds.toPrecision(3))} s`)
    expect(e.mechanism).toBe('deceptive-idleness')
  })

  it('keeps a label’s simulated and real runs apart: they are two rows, never one side', () => {
    // the real anticipatory run is made the slowest of all: mixed with its simulated twin it would vanish
    const real = [asReal(runs[0], 1), asReal(runs[1], 10)]
    const e = explain([...runs, ...real], 'reader')!
    expect(e.best).toBe('anticipatory')
    expect(e.worst).toBe('anticipatory (real)')
    expect(rowName(real[0])).toBe('deadline (real)')
  })

  it('says when the schedulers do not differ enough to explain', () => {
    const e = explain([runs[0], { ...runs[0], label: 'twin' }], 'reader')!
    expect(e.mechanism).toBe('none')
    expect(e.text).toBe('Every scheduler gave the reader the same time: nothing to explain.')
    // 1 % apart: too little
    const slower = {
      ...runs[0],
      label: 'slower',
      processes: runs[0].processes.map((p) =>
        p.name === 'reader' ? { ...p, seconds: p.seconds * 1.01 } : p,
      ),
    }
    const f = explain([runs[0], slower], 'reader')!
    expect(f.mechanism).toBe('none')
    expect(f.text).toMatch(/^deadline and slower differ by 0\.99 % for the reader: too little to explain\.$/)
  })

  it('ranks a job the clock bounds by throughput, not by its time', () => {
    // both "finished" after the same time (fio's time_based jobs do), having moved different amounts
    const timed = runs.map((r, i) => ({
      ...r,
      processes: r.processes.map((p) =>
        p.name === 'reader'
          ? { ...p, seconds: 30, finished: true, bytes: (i + 1) * 1e8, MBps: ((i + 1) * 1e8) / 30e6 }
          : p,
      ),
    }))
    const e = explain(timed, 'reader')!
    expect(e.metric).toBe('MBps')
    expect(e.best).toBe('anticipatory')
  })
})

describe('a difference within the run-to-run noise', () => {
  /** A run of `from`'s figures as `label`'s, its reader taking `seconds`. */
  const as = (from: RunResult, label: string, seconds: number, repetition = 0, real = true): RunResult => ({
    ...(real ? asReal(from, 1) : from),
    label,
    repetition,
    processes: from.processes.map((p) => ({
      ...p,
      seconds: p.name === 'reader' ? seconds : p.seconds,
      ...(real ? { time: undefined } : {}),
    })),
  })
  const [deadline, anticipatory] = runs

  it('names no mechanism for real runs closer than real runs of one scheduler are to each other', () => {
    // a 3 s real run: the reader took 0.416 s under deadline, 0.4 s under noop — 4 % apart, with
    // stages as different as deadline's and anticipatory's
    const e = explain([as(anticipatory, 'noop', 0.4), as(deadline, 'deadline', 0.416)], 'reader')!
    expect(e).toMatchObject({ best: 'noop (real)', worst: 'deadline (real)', mechanism: 'noise' })
    expect(e.text).toBe(
      'noop (real) gave the reader 0.4 s, deadline (real) 0.416 s: 3.8 % apart, under the 5 % that real runs' +
        ' of one scheduler differ by from run to run, so the schedulers did not differ beyond the run-to-run' +
        ' noise, and no mechanism is named. Repeat the runs to measure their noise.',
    )
    // beyond the floor, the stages say why
    const far = explain([as(anticipatory, 'noop', 0.4), as(deadline, 'deadline', 0.44)], 'reader')!
    expect(far.mechanism).toBe('deceptive-idleness')
  })

  it('weighs repetitions by their spread: within the confidence interval of the difference, no mechanism', () => {
    const wide = [
      ...[0.3, 0.45, 0.4].map((s, i) => as(anticipatory, 'noop', s, i)),
      ...[0.5, 0.35, 0.48].map((s, i) => as(deadline, 'deadline', s, i)),
    ]
    const e = explain(wide, 'reader')!
    expect(e.mechanism).toBe('noise')
    expect(e.text).toMatch(
      /^noop \(real\) gave the reader 0\.383 s, deadline \(real\) 0\.443 s \(means of 3 and 3 runs\): the 0\.06 s between them is within the 95 % confidence interval of their difference \(± 0\.\d+ s\), so the schedulers did not differ beyond the run-to-run noise/,
    )
    // as far apart, repeated closely: beyond the noise
    const tight = [
      ...[0.4, 0.401, 0.399].map((s, i) => as(anticipatory, 'noop', s, i)),
      ...[0.44, 0.441, 0.439].map((s, i) => as(deadline, 'deadline', s, i)),
    ]
    expect(explain(tight, 'reader')!.mechanism).toBe('deceptive-idleness')
  })

  it('holds simulated repetitions to their spread too, and identical ones to none', () => {
    const spread = [
      ...[1.0, 1.5].map((s, i) => as(anticipatory, 'anticipatory', s, i, false)),
      ...[1.2, 1.6].map((s, i) => as(deadline, 'deadline', s, i, false)),
    ]
    expect(explain(spread, 'reader')!.mechanism).toBe('noise')
    // a deterministic simulation's repetitions are identical: any difference over 2 % is explained
    const same = [anticipatory, { ...anticipatory, repetition: 1 }, deadline, { ...deadline, repetition: 1 }]
    expect(explain(same, 'reader')!.mechanism).toBe('deceptive-idleness')
  })
})

describe('whyText', () => {
  it('explains simulated and real runs each among themselves', () => {
    const t = whyText([...runs, asReal(runs[0], 1), asReal(runs[1], 0.5)], 'reader', 100)
    // the mechanism named beside each explanation, as the app's panel names it
    const sim = explain(runs, 'reader')!
    const real = explain([asReal(runs[0], 1), asReal(runs[1], 0.5)], 'reader')!
    expect(t).toContain(`why (${MECHANISM_NAME[sim.mechanism]}; simulated runs):\n  Under `)
    expect(t).toContain(`why (${MECHANISM_NAME[real.mechanism]}; real runs):\n  Under `)
    expect(t).toMatch(/deadline \(real\)/)
    // the time split is the simulator's alone
    expect(t.match(/where the reader's time went/g)).toHaveLength(1)
  })
})

describe('the device held more requests', () => {
  // a QD1 reader of 4 MiB at a SATA SSD, alone and beside a deep writer: its requests take longer
  // at the device beside the writer, which keeps the device's queue full
  const run = (label: string, withWriter: boolean): RunResult => {
    const writer = {
      name: 'writer',
      type: 'fio',
      params: {
        rw: 'randwrite',
        bs: '128k',
        size: '256M',
        direct: true,
        ioengine: 'libaio',
        iodepth: 64,
        time_based: true,
        runtime: 5,
      },
    }
    const s = resolveSpec({
      device: { preset: 'ssd-sata-mlc' },
      workload: {
        processes: [
          { name: 'reader', type: 'fio', params: { rw: 'randread', bs: '4k', size: '4M', direct: true } },
          ...(withWriter ? [writer] : []),
        ],
      },
      schedulers: ['none'],
    })
    return { ...simulate(s, 0), label }
  }
  const busy = run('busy', true)
  const calm = run('calm', false)

  it('is said with both levels measured', () => {
    const e = explain([calm, busy], 'reader')!
    expect(e.worst).toBe('busy')
    expect(e.mechanism).toBe('device-service')
    expect(e.text).toMatch(/the device held 3\d\.\d requests at a time on average, against 0\.99/)
  })

  it('is not said from a level that was not measured (a real run whose samples show none)', () => {
    const zeros = {
      ...calm,
      timeSeries: { ...calm.timeSeries, inFlight: calm.timeSeries.inFlight.map(() => 0) },
    }
    const e = explain([zeros, busy], 'reader')!
    expect(e.mechanism).toBe('device-service')
    expect(e.text).not.toMatch(/requests at a time/)
    const none = { ...calm, timeSeries: { ...calm.timeSeries, inFlight: [] } }
    expect(explain([none, busy], 'reader')!.text).not.toMatch(/requests at a time/)
  })
})

describe('requests of different sizes', () => {
  // the same direct writer of 64 MiB at a SATA SSD, in 16 KiB requests and in 256 KiB ones: the
  // small requests take less time each at the device, and more per MB
  const run = (label: string, bs: string): RunResult => {
    const s = resolveSpec({
      device: { preset: 'ssd-sata-mlc' },
      workload: {
        processes: [{ name: 'writer', type: 'fio', params: { rw: 'write', bs, size: '64M', direct: true } }],
      },
      schedulers: [{ name: 'noop', label }],
    })
    return simulate(s, 0)
  }

  it('gives the stage per MB beside its mean per request, which alone read backwards', () => {
    const e = explain([run('small', '16k'), run('large', '256k')], 'writer')!
    expect(e.worst).toBe('small')
    expect(e.mechanism).toBe('device-service')
    // 57.3 µs each against 0.504 ms
    const each = /took ([\d.]+) µs each at the device under small, ([\d.]+) ms under large/.exec(e.text)!
    expect(Number(each[1]) / 1000).toBeLessThan(Number(each[2]))
    const per = / — requests of 16 KiB against 256 KiB, ([\d.]+) ms per MB against ([\d.]+) ms/.exec(e.text)
    expect(per, e.text).not.toBeNull()
    expect(Number(per![1])).toBeGreaterThan(Number(per![2]))
  })

  it('says nothing of sizes when they are alike', () => {
    expect(explain(runs, 'reader')!.text).not.toContain('requests of')
  })
})
