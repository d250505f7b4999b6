// Small specs for API tests: fast ones that finish in well under a second, and a long one to cancel.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SweepResult } from '../../src/shared/api/contract'
import type { LabEvent, RunDoneEvent } from '../../src/shared/api/lab-events'
import { outcomeKey, resultOf, sweepResultOf } from '../../src/shared/api/run-outcome'
import type { ExperimentResult } from '../../src/shared/experiment/compare'
import type { RunResult } from '../../src/shared/experiment/result'
import { LabService } from '../../src/main/services/lab-service'
import type { LabServiceOptions } from '../../src/main/services/lab-service'

export const EXAMPLES = join(import.meta.dirname, '../../examples')

export const quickSpec = {
  name: 'quick',
  device: { preset: 'ssd-sata-mlc' },
  workload: {
    processes: [{ name: 'rr', type: 'random-read', params: { size: '64M', count: 200, direct: true } }],
  },
  schedulers: ['noop', { name: 'deadline', label: 'deadline-fb4', tunables: { fifo_batch: 4 } }],
}

/** A run that takes many seconds: the flagship, repeated. */
export const longSpec = {
  name: 'long',
  device: { preset: 'hdd-2003-ide' },
  host: { preset: 'linux-2003' },
  workload: {
    processes: [{ name: 'writer', type: 'dd', params: { op: 'write', bs: '1M', count: 512, loop: true } }],
    stop: { maxSeconds: 100000 },
  },
  schedulers: ['noop', 'deadline'],
  repetitions: 4,
}

export function tempDir(prefix = 'iosched-api-'): string {
  return mkdtempSync(join(tmpdir(), prefix))
}

export function newService(o: Partial<LabServiceOptions> = {}): LabService {
  return new LabService({ examplesDir: EXAMPLES, libraryDir: join(tempDir(), 'sessions'), parallel: 2, ...o })
}

/** Collect a service's events; `until` resolves at the first event that matches. */
export function recorder(lab: LabService) {
  const events: LabEvent[] = []
  const waiters: { match: (e: LabEvent) => boolean; resolve: (e: LabEvent) => void }[] = []
  lab.on((e) => {
    events.push(e)
    for (const w of [...waiters])
      if (w.match(e)) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve(e)
      }
  })
  return {
    events,
    until<T extends LabEvent['type']>(type: T, runId?: string): Promise<Extract<LabEvent, { type: T }>> {
      const match = (e: LabEvent): boolean => e.type === type && (!runId || e.runId === runId)
      const seen = events.find(match)
      if (seen) return Promise.resolve(seen as Extract<LabEvent, { type: T }>)
      return new Promise((resolve) => waiters.push({ match, resolve: resolve as (e: LabEvent) => void }))
    },
    /**
     * The run's end, and its whole result as a client puts it back together: run:done names the
     * runs, which came in run:job-done (every one must have).
     */
    async done(
      runId: string,
    ): Promise<{ done: RunDoneEvent; result: ExperimentResult; sweep: SweepResult | null }> {
      const done = await this.until('run:done', runId)
      const results = new Map<string, RunResult>()
      for (const e of events)
        if (e.type === 'run:job-done' && e.runId === runId) results.set(outcomeKey(e.job), e.result)
      const r = resultOf(done.result, results)
      const sw = done.sweep ? sweepResultOf(done.sweep, results) : null
      const missing = [...r.missing, ...(sw?.missing ?? [])]
      if (missing.length) throw new Error(`run:done names runs that never came: ${JSON.stringify(missing)}`)
      return { done, result: r.result, sweep: sw?.result ?? null }
    },
  }
}
