import { fork } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import type { LabService } from '../../src/main/services/lab-service'
import { newService, quickSpec, recorder } from './fixtures'

/** 10^12 random reads with 10^7 s of simulated time: it would run until killed. */
const huge = {
  name: 'huge',
  device: { preset: 'ssd-sata-mlc' },
  workload: {
    processes: [{ name: 'rr', type: 'random-read', params: { count: 1e12 } }],
    stop: { maxSeconds: 1e7 },
  },
  schedulers: ['noop'],
}

const services: LabService[] = []
afterEach(() => {
  for (const s of services.splice(0)) s.dispose()
})

describe('startRun and the work limits', () => {
  it('refuses work beyond the limits before any simulation child starts, unless allowLarge', async () => {
    const children: ChildProcess[] = []
    const lab = newService({
      spawner: (path) => {
        const c = fork(path, [], {
          execArgv: ['--import', 'tsx'],
          stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
          serialization: 'advanced',
        })
        children.push(c)
        return c
      },
    })
    services.push(lab)
    const rec = recorder(lab)
    const refused = await lab.startRun({ spec: huge })
    expect(refused).toEqual({
      problems: [
        expect.stringMatching(/^the run is refused before it starts: .*allowLarge\) to run it anyway$/),
        expect.stringMatching(/^up to 1e12 I\/O requests in one run: .*more than the limit of 1e9 requests/),
      ],
    })
    expect(children).toHaveLength(0)
    expect(rec.events).toEqual([])
    // allowed: it runs, each job with its simulated-time bound, progress against it
    const run = await lab.startRun({ spec: huge, allowLarge: true })
    if (!('runId' in run)) throw new Error(JSON.stringify(run))
    expect(run.jobs.map((j) => j.maxSimSeconds)).toEqual([1e7])
    const p = await rec.until('run:progress', run.runId)
    expect(p.job.maxSimSeconds).toBe(1e7)
    expect(p.simSeconds).toBeGreaterThan(0)
    expect(p.simSeconds).toBeLessThan(1e7)
    await lab.cancelRun({ runId: run.runId })
    await rec.until('run:failed', run.runId)
  })

  it('gives every job of a run within the limits its spec’s simulated-time bound', async () => {
    const lab = newService()
    services.push(lab)
    const rec = recorder(lab)
    const run = await lab.startRun({ spec: quickSpec })
    if (!('runId' in run)) throw new Error(JSON.stringify(run))
    expect(run.jobs.map((j) => j.maxSimSeconds)).toEqual([600, 600])
    await rec.until('run:done', run.runId)
  })
})
