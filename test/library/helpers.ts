// Sessions for the library tests: experiments of synthetic runs (known times), imported runs,
// and a temporary library folder.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { summarizeRuns } from '../../src/shared/experiment/compare'
import type { ExperimentResult } from '../../src/shared/experiment/compare'
import type { RunResult } from '../../src/shared/experiment/result'
import type { ResolvedSpec } from '../../src/shared/experiment/resolved'
import { syntheticRuns } from '../report/runs'

export const FIXTURES = join(import.meta.dirname, 'fixtures')

export function tempLibrary(prefix = 'iosched-library-'): string {
  return join(mkdtempSync(join(tmpdir(), prefix)), 'sessions')
}

/** An experiment on `device` whose `reader` (a cat) takes the given seconds per label and repetition. */
export function experiment(
  name: string,
  times: Record<string, number[]>,
  device = 'hdd-2003-ide',
): ExperimentResult {
  const runs = syntheticRuns(times).map((r) => ({ ...r, device }))
  const spec = {
    name,
    description: `${name}: synthetic`,
    device: { preset: device, model: 'hdd', values: {}, capacitySectors: 1 },
    host: { preset: 'linux-2003', values: {} },
    files: [],
    processes: [{ name: 'reader', type: 'cat', params: {}, startMs: 0, ioClass: 0, ioLevel: 4, nice: 0 }],
    stop: { processes: ['reader'], maxSeconds: 100 },
    schedulers: Object.keys(times).map((l) => ({ name: l, label: l, tunables: {} })),
    repetitions: Math.max(...Object.values(times).map((t) => t.length)),
    seed: 1,
  } as unknown as ResolvedSpec
  return { schema: 'iosched-lab/experiment@1', name, spec, runs, summary: summarizeRuns(runs) }
}

/** Runs as if imported from a tool's output. */
export function importedRuns(label: string, seconds: number[], tool = 'fio'): RunResult[] {
  return syntheticRuns({ [label]: seconds }).map((r) => ({
    ...r,
    source: 'real' as const,
    scheduler: 'unknown',
    device: 'sda',
    imported: { tool, file: `${label}.json` },
  }))
}

/** The spec document a session keeps (as edited). */
export const specDoc = (name: string, schedulers: string[]) => ({
  name,
  device: { preset: 'hdd-2003-ide' },
  workload: { processes: [{ name: 'reader', type: 'cat', params: { file: 'big' } }] },
  schedulers,
})
