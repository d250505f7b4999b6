// The validation report as the Devices view reads it (lib/validate-report.ts) and the validation
// store against a fake lab: options, start, stage progress, the report, refusals, cancel, and
// catching up through runStatus after the event channel dropped. The report is one recorded from
// `iosched-lab validate --quick --only randread-qd1,reader-vs-direct-writer --seconds 1` on a
// scratch loop device.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { setLab } from '../../src/renderer/src/api'
import {
  cellRows,
  figure,
  rankingNote,
  sameRanking,
  separablePairs,
  verdicts,
} from '../../src/renderer/src/lib/validate-report'
import { matrixOf, useValidation } from '../../src/renderer/src/stores/validation'
import type { LabEvent } from '../../src/shared/api/lab-events'
import type { ValidateReport } from '../../src/shared/validate/report'
import { fakeLab } from './fake-lab'

const recorded = (): ValidateReport =>
  JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/validate-quick-loop.json'), 'utf8'))
const tick = () => new Promise((r) => setTimeout(r, 0))

describe('a validation report, as shown', () => {
  it('gives the three verdicts with their figures and targets, missed ones said so', () => {
    const r = recorded()
    expect(verdicts(r).map((v) => [v.key, v.value, v.target, v.met, v.detail])).toEqual([
      ['orderedShare', 0, '≥ 90 %', false, '0 of 4 pairs (of 36 compared)'],
      ['medianCdfRelative', r.summary.medianCdfRelative, '≤ 25 %', false, 'over 12 cells'],
      [
        'fingerprintResidual',
        r.summary.fingerprintWorstResidual,
        '≤ 10 %',
        false,
        expect.stringMatching(/^6 sweep points, preset fingerprint-loop1-/),
      ],
    ])
    // no separable pair: no share to judge (the summary says 1), not 100 %
    const calm = { ...r, summary: { ...r.summary, separablePairs: 0, orderedSame: 0, orderedShare: 1 } }
    expect(verdicts(calm)[0]).toMatchObject({
      value: null,
      vacuous: true,
      detail: 'the kernel separated none of the 36 pairs beyond the noise: nothing to order',
    })
    // a report that also counts the pairs tested alone says so
    const counted = {
      ...calm,
      summary: { ...calm.summary, uncorrected: { separablePairs: 3, orderedSame: 1 } },
    }
    expect(verdicts(counted)[0].detail).toBe(
      'the kernel separated none of the 36 pairs beyond the noise: nothing to order; each tested alone at p < 0.05, 1 of 3',
    )
  })

  it('puts throughput, tails and the CDF distance of each scheduler × process in one row', () => {
    const w = recorded().workloads[1]
    const rows = cellRows(w)
    expect(rows.map((c) => `${c.scheduler}/${c.process}`)).toEqual([
      'none/reader',
      'mq-deadline/reader',
      'kyber/reader',
      'bfq/reader',
      'none/writer',
      'mq-deadline/writer',
      'kyber/writer',
      'bfq/writer',
    ])
    const mb = w.cells.find((c) => c.metric === 'MBps' && c.scheduler === 'kyber' && c.process === 'writer')!
    const p99 = w.cells.find(
      (c) => c.metric === 'p99Ms' && c.scheduler === 'kyber' && c.process === 'writer',
    )!
    const cdf = w.cdf.find((c) => c.scheduler === 'kyber' && c.process === 'writer')!
    expect(rows[6]).toEqual({
      scheduler: 'kyber',
      process: 'writer',
      realMBps: mb.real.mean,
      realCi: mb.real.ci95,
      realN: mb.real.n,
      simMBps: mb.simulated.mean,
      ratio: mb.ratio,
      realP99: p99.real.mean,
      realP99Ci: p99.real.ci95,
      simP99: p99.simulated.mean,
      cdfRelative: cdf.relative,
      runs: w.runs.kyber,
    })
  })

  it('reads a figure lost to JSON (NaN → null) as none, never as 0', () => {
    const w = recorded().workloads[0]
    const c = w.cells[0]
    const broken = {
      ...w,
      cells: [{ ...c, real: { ...c.real, ci95: null as unknown as number }, ratio: NaN }],
      cdf: [],
    }
    expect(cellRows(broken)[0]).toMatchObject({ realCi: null, ratio: null, cdfRelative: null, realP99: null })
    expect([figure(null), figure(NaN), figure(Infinity), figure(0)]).toEqual([null, null, null, 0])
  })

  it('lists the separable pairs of every workload with how the simulation ordered each, and compares rankings', () => {
    const r = recorded()
    expect(
      separablePairs(r).map((p) => `${p.workload} ${p.process} ${p.metric} ${p.a}>${p.b} ${p.simulated}`),
    ).toEqual([
      'reader-vs-direct-writer reader p99Ms kyber>bfq opposite',
      'reader-vs-direct-writer writer MBps kyber>none tie',
      'reader-vs-direct-writer writer MBps none>bfq opposite',
      'reader-vs-direct-writer writer MBps kyber>bfq opposite',
    ])
    expect(sameRanking(r.workloads[0])).toBe(false)
    const same = {
      ...r.workloads[0],
      ranking: { ...r.workloads[0].ranking, simulated: r.workloads[0].ranking.real },
    }
    expect(sameRanking(same)).toBe(true)
    // a different order says whether the kernel's own was more than noise
    expect(rankingNote(same)).toBe('the same order')
    const w = r.workloads[0]
    expect(w.pairs.some((p) => p.separable)).toBe(false)
    expect(rankingNote(w)).toBe(
      'a different order, but the kernel’s is within the noise: it separated none of these schedulers',
    )
    // a separable pair of another metric or process is not the ranking's
    const other = r.workloads[1]
    expect(other.pairs.some((p) => p.separable && p.process !== other.ranking.process)).toBe(true)
    const separated = {
      ...w,
      pairs: w.pairs.map((p, i) => (i === 0 ? { ...p, metric: 'MBps' as const, separable: true } : p)),
    }
    expect(separated.pairs[0].process).toBe(w.ranking.process)
    expect(rankingNote(separated)).toBe('a different order')
  })
})

describe('the validation store', () => {
  beforeEach(() => setActivePinia(createPinia()))
  afterEach(() => setLab(null))

  const target = { kind: 'scratch' as const }
  const presets = {
    presets: [
      {
        name: 'fp-loop',
        model: 'virtual',
        path: '/p/fp-loop.json',
        target: 'loop1',
        description: '',
        worstResidual: 0.03,
      },
    ],
    problems: ['/p/broken.json: Unexpected end of JSON input'],
  }

  it('starts the quick matrix by default, or the ticked workloads in the matrix’s order, with a reused preset', async () => {
    const lab = fakeLab({ startValidation: () => ({ runId: 'v1' }), fingerprintPresets: () => presets })
    const v = useValidation()
    await v.loadPresets()
    expect(v.presets.map((p) => p.name)).toEqual(['fp-loop'])
    expect(v.presetProblems).toEqual(presets.problems)
    expect(v.workloads).toEqual(matrixOf(true))
    await v.start(target)
    expect(lab.calls.at(-1)).toEqual({ method: 'startValidation', input: { target, quick: true } })
    expect(v.status).toBe('running')
    lab.emit({ type: 'validate:failed', runId: 'v1', cancelled: false, message: 'x' })
    v.setQuick(false)
    expect(v.workloads).toEqual(matrixOf(false))
    v.workloads = ['reader-vs-direct-writer', 'randread-qd1']
    v.presetName = 'fp-loop'
    v.seconds = 1
    await v.start(target)
    expect(lab.calls.at(-1)?.input).toEqual({
      target,
      quick: false,
      presetName: 'fp-loop',
      seconds: 1,
      only: ['randread-qd1', 'reader-vs-direct-writer'],
    })
  })

  it('follows the stage and fio’s progress, keeps notes once, and shows the report of its own run only', async () => {
    const lab = fakeLab({ startValidation: () => ({ runId: 'v1' }) })
    const v = useValidation()
    await v.start(target)
    const at = (stage: string, k: number, fraction: number | null): LabEvent => ({
      type: 'validate:progress',
      runId: 'v1',
      stage,
      k,
      n: 3,
      run: fraction === null ? null : { label: 'bfq', repetition: 1 },
      fraction,
      etaSeconds: 2,
    })
    lab.emit(at('fingerprint', 1, null))
    lab.emit(at('randread-qd1', 2, 0.5))
    lab.emit({ ...(at('seqread', 3, 0.9) as object), runId: 'other' } as LabEvent)
    expect(v.progress).toMatchObject({ stage: 'randread-qd1', k: 2, fraction: 0.5, run: { label: 'bfq' } })
    lab.emit({ type: 'run:notice', runId: 'v1', message: 'detached /dev/loop1' })
    lab.emit({ type: 'run:notice', runId: 'v1', message: 'detached /dev/loop1' })
    expect(v.notices).toEqual(['detached /dev/loop1'])
    const report = recorded()
    lab.emit({ type: 'validate:done', runId: 'other', report: { ...report, kernel: 'not mine' } })
    expect(v.report).toBe(null)
    lab.emit({ type: 'validate:done', runId: 'v1', report })
    expect(v.status).toBe('done')
    expect(v.report).toBe(report)
    expect(v.busy).toBe(false)
  })

  it('shows a refusal, a failure and a cancel as such; cancels its own run through cancelRun', async () => {
    let answer: unknown = { problems: ['refusing /dev/vda: it is in use (mounted at /)'] }
    const lab = fakeLab({ startValidation: () => answer, cancelRun: () => true })
    const v = useValidation()
    await v.start({ kind: 'device', name: 'vda', confirm: 'vda' })
    expect(v.status).toBe('failed')
    expect(v.message).toBe('refusing /dev/vda: it is in use (mounted at /)')
    answer = { runId: 'v2' }
    await v.start(target)
    await v.cancel()
    expect(lab.calls.at(-1)).toEqual({ method: 'cancelRun', input: { runId: 'v2' } })
    lab.emit({ type: 'validate:failed', runId: 'v2', cancelled: true, message: 'cancelled' })
    expect(v.status).toBe('cancelled')
    expect(v.message).toBe('Cancelled: the device was restored.')
    answer = { runId: 'v3' }
    await v.start(target)
    lab.emit({ type: 'validate:failed', runId: 'v3', cancelled: false, message: 'fio died' })
    expect([v.status, v.message]).toEqual(['failed', 'fio died'])
  })

  it('catches up through runStatus when the event channel comes back, or says the lab forgot the run', async () => {
    const report = recorded()
    let state: 'done' | 'unknown' = 'done'
    const lab = fakeLab({
      startValidation: () => ({ runId: 'v1' }),
      runStatus: () =>
        state === 'done'
          ? { runId: 'v1', state, started: null, events: [{ type: 'validate:done', runId: 'v1', report }] }
          : { runId: 'v1', state, started: null, events: [] },
    })
    const v = useValidation()
    await v.start(target)
    lab.reconnect()
    await tick()
    expect(v.status).toBe('done')
    expect(v.report).toEqual(report)
    state = 'unknown'
    await v.start(target)
    lab.reconnect()
    await tick()
    expect(v.status).toBe('failed')
    expect(v.message).toContain('no longer knows this validation')
  })
})
