// A session round-trips through the app's stores: a comparison is run, then a sweep (the
// comparison stays), runs are imported, notes and tags written; saved through a real session
// store; then, in fresh stores as after a reload, opened again — and everything is as it was:
// the spec, the comparison, the sweep with its setup, the imported runs, notes and tags.
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, describe, expect, it } from 'vitest'
import { setLab } from '../../src/renderer/src/api'
import { useCatalogue } from '../../src/renderer/src/stores/catalogue'
import { useExperiment } from '../../src/renderer/src/stores/experiment'
import { useRun } from '../../src/renderer/src/stores/run'
import { useSessions } from '../../src/renderer/src/stores/sessions'
import { useSweep } from '../../src/renderer/src/stores/sweep'
import { SessionStore } from '../../src/main/services/sessions'
import type { RunJobRef, SessionSaveInput, SweepSpec } from '../../src/shared/api/contract'
import { outcomeOf } from '../../src/shared/api/run-outcome'
import { catalogue } from '../../src/shared/catalogue'
import type { ExperimentResult } from '../../src/shared/experiment/compare'
import { experiment, importedRuns, tempLibrary } from '../library/helpers'
import { fakeLab } from './fake-lab'

const spec = {
  name: 'round trip',
  device: { preset: 'ssd-sata-mlc' },
  workload: { processes: [{ name: 'rr', type: 'random-read', params: { count: 10 } }] },
  schedulers: ['noop', 'deadline'],
}
const LABELS = ['noop', 'deadline']

/** A lab whose sessions are a real store's files; runs answer with the given results as events. */
function lab(folder: string) {
  const store = new SessionStore(folder, 'test')
  let next: { jobs: RunJobRef[]; emit: () => void } | null = null
  const fake = fakeLab({
    catalogue: () => catalogue(),
    validateSpec: () => ({ ok: false, issues: [] }),
    listSessions: () => store.list(),
    library: () => ({ folder }),
    saveSession: (i) => store.save(JSON.parse(JSON.stringify(i)) as SessionSaveInput),
    openSession: async (i) => JSON.parse(JSON.stringify(await store.open((i as { path: string }).path))),
    startRun: () => {
      const n = next!
      setTimeout(n.emit, 0)
      return { runId: 'r', jobs: n.jobs, parallel: 2 }
    },
  })
  const jobOf = (point: number, r: { label: string; repetition: number }): RunJobRef => ({
    point,
    schedIndex: LABELS.indexOf(r.label),
    repetition: r.repetition,
    label: r.label,
  })
  /** The next run: a comparison (one point) or a sweep (one result per value). */
  function willRun(points: ExperimentResult[], sweep?: SweepSpec): void {
    const jobs = points.flatMap((p, k) => p.runs.map((r) => jobOf(k, r)))
    const outcomes = points.map((p, k) => outcomeOf(p, (r) => jobOf(k, r)))
    next = {
      jobs,
      emit: () => {
        points.forEach((p, k) =>
          p.runs.forEach((r) => fake.emit({ type: 'run:job-done', runId: 'r', job: jobOf(k, r), result: r })),
        )
        fake.emit({
          type: 'run:done',
          runId: 'r',
          result: outcomes[0],
          sweep: sweep
            ? { sweep, points: sweep.values.map((value, k) => ({ value, result: outcomes[k] })) }
            : null,
          failures: [],
          wallSeconds: 1,
        })
      },
    }
  }
  return { willRun }
}

const until = async (f: () => boolean) => {
  for (let i = 0; i < 100 && !f(); i++) await new Promise((r) => setTimeout(r, 5))
  expect(f()).toBe(true)
}

afterEach(() => setLab(null))

describe('a session saved and opened again', () => {
  for (const how of ['range', 'list'] as const)
    it(`brings back the comparison, the sweep and its setup (${how}), imported runs, notes and tags`, async () => {
      const folder = tempLibrary()
      setActivePinia(createPinia())
      const { willRun } = lab(folder)
      await useCatalogue().load()
      const exp = useExperiment()
      exp.load(spec)
      const run = useRun()
      const comparison = experiment('round trip', { noop: [10, 11], deadline: [20, 21] })
      willRun([comparison])
      await run.start({ spec: exp.doc })
      await until(() => run.status === 'done')
      // the sweep, set up on its page
      const sweep = useSweep()
      const path = 'schedulers[1].tunables.fifo_batch'
      sweep.choose(
        path,
        catalogue()
          .schedulers.find((s) => s.name === 'deadline')!
          .tunables.find((t) => t.name === 'fifo_batch')!,
      )
      if (how === 'range') Object.assign(sweep, { from: '1', to: '16', steps: 3 })
      else sweep.list = '1, 4, 64'
      const setup = sweep.spec()!
      expect(setup.values).toEqual(how === 'range' ? [1, 9, 16] : [1, 4, 64])
      const points = setup.values.map((v) =>
        experiment(`fifo_batch ${v}`, { noop: [5], deadline: [Number(v)] }),
      )
      willRun(points, setup)
      await run.start({ spec: exp.doc, sweep: setup })
      await until(() => run.status === 'done')
      expect(run.result).toEqual(comparison) // a sweep does not drop the comparison
      expect(run.sweep?.points.map((p) => p.result)).toEqual(points)
      const sessions = useSessions()
      sessions.addRuns(importedRuns('disk-a fio', [12, 13]))
      const before = {
        doc: JSON.parse(JSON.stringify(exp.doc)),
        result: JSON.parse(JSON.stringify(run.result)),
        sweep: JSON.parse(JSON.stringify(run.sweep)),
        runs: JSON.parse(JSON.stringify(sessions.extraRuns)),
        setup: { path: sweep.path, from: sweep.from, to: sweep.to, steps: sweep.steps, list: sweep.list },
      }
      const info = await sessions.save('Round trip', undefined, {
        notes: 'measured twice',
        tags: ['ssd', 'sweep'],
      })
      expect(info?.path).toBeTruthy()

      // as after a reload: new stores, the same lab
      setActivePinia(createPinia())
      lab(folder)
      await useCatalogue().load()
      const again = useSessions()
      expect(await again.open(info!.path)).toBe(true)
      expect(useExperiment().doc).toEqual(before.doc)
      expect(useRun().status).toBe('done')
      expect(useRun().result).toEqual(before.result)
      expect(useRun().runs).toEqual(before.result.runs)
      expect(useRun().sweep).toEqual(before.sweep)
      const s = useSweep()
      expect({ path: s.path, from: s.from, to: s.to, steps: s.steps, list: s.list }).toEqual(before.setup)
      expect(s.param?.name).toBe('fifo_batch')
      expect(s.spec()).toEqual(setup)
      expect(again.extraRuns).toEqual(before.runs)
      expect([again.notes, again.tags]).toEqual(['measured twice', ['ssd', 'sweep']])
      expect(again.current).toMatchObject({ name: 'Round trip', path: info!.path })
    })
})
