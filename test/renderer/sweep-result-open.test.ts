// A sweep's result from the command line (`iosched-lab sweep` or `merge`) opens in the app like
// a saved sweep: the spec on Setup, the points on Sweep with the parameter and values set up —
// also beyond the number of points the app runs at once — and it can be saved as a session.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, describe, expect, it } from 'vitest'
import { main } from '../../src/cli/main'
import { SessionStore } from '../../src/main/services/sessions'
import { setLab } from '../../src/renderer/src/api'
import { useCatalogue } from '../../src/renderer/src/stores/catalogue'
import { useExperiment } from '../../src/renderer/src/stores/experiment'
import { useRun } from '../../src/renderer/src/stores/run'
import { useSessions } from '../../src/renderer/src/stores/sessions'
import { useSweep } from '../../src/renderer/src/stores/sweep'
import type { SessionSaveInput } from '../../src/shared/api/contract'
import { LAB_INPUTS } from '../../src/shared/api/schemas'
import { MAX_SWEEP_POINTS } from '../../src/shared/api/sweep'
import { catalogue } from '../../src/shared/catalogue'
import { tempLibrary } from '../library/helpers'
import { fakeLab } from './fake-lab'

afterEach(() => setLab(null))

const spec = {
  name: 'many points',
  device: { preset: 'ssd-sata-mlc' },
  workload: { processes: [{ name: 'rr', type: 'random-read', params: { count: 20 } }] },
  schedulers: ['noop', 'deadline'],
}

describe('a sweep result of the command line', () => {
  it('opens as a session with its sweep, set up as it was, and saves as one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'iosched-sweep-open-'))
    writeFileSync(join(dir, 'spec.json'), JSON.stringify(spec))
    const values = Array.from({ length: MAX_SWEEP_POINTS + 6 }, (_, i) => i + 1)
    const file = join(dir, 'result.json')
    const args = ['sweep', join(dir, 'spec.json'), '--param', 'schedulers[1].tunables.fifo_batch']
    const code = await main(
      [...args, '--values', values.join(','), '--jobs', '0', '--out', file],
      () => undefined,
      () => undefined,
    )
    expect(code).toBe(0)
    const written = JSON.parse(readFileSync(file, 'utf8'))

    const folder = tempLibrary()
    const store = new SessionStore(folder, 'test')
    fakeLab({
      catalogue: () => catalogue(),
      validateSpec: () => ({ ok: false, issues: [] }),
      listSessions: () => store.list(),
      library: () => ({ folder }),
      openSession: async (i) => JSON.parse(JSON.stringify(await store.open((i as { path: string }).path))),
      saveSession: (i) => {
        const parsed = LAB_INPUTS.saveSession.safeParse(i)
        if (!parsed.success) throw new Error(parsed.error.issues[0].message)
        return store.save(JSON.parse(JSON.stringify(i)) as SessionSaveInput)
      },
    })
    setActivePinia(createPinia())
    await useCatalogue().load()
    const sessions = useSessions()
    expect(await sessions.open(file)).toBe(true)
    expect(useExperiment().doc).toEqual(spec)
    const run = useRun()
    expect(run.sweep?.sweep).toEqual({ path: 'schedulers[1].tunables.fifo_batch', values })
    expect(run.sweep?.points).toEqual(written.points)
    const sweep = useSweep()
    expect(sweep.path).toBe('schedulers[1].tunables.fifo_batch')
    expect(sweep.param?.name).toBe('fifo_batch')
    expect(sweep.values).toEqual(values)
    expect(sessions.current?.name).toBe('many points — sweep of schedulers[1].tunables.fifo_batch')

    const info = await sessions.save('many points', join(dir, 'saved.json'))
    expect(info?.path).toBe(join(dir, 'saved.json'))
    const again = await store.open(join(dir, 'saved.json'))
    expect(again.sweep?.points.map((p) => p.value)).toEqual(values)
  }, 120_000)
})
