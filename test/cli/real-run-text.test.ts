import { describe, expect, it } from 'vitest'
import { table } from '../../src/cli/commands/run'
import { combineRuns } from '../../src/main/services/real/combine'
import type {
  RealExperimentResult,
  RealRunResult,
  RealTargetInfo,
} from '../../src/main/services/real/real-result'
import { summarizeRuns } from '../../src/shared/experiment/compare'
import { experiment } from '../library/helpers'
import { syntheticRuns } from '../report/runs'

const target: RealTargetInfo = {
  kind: 'scratch-loop',
  name: 'loop0',
  path: '/dev/loop0',
  sizeBytes: 256 * 2 ** 20,
  rotational: true,
  model: null,
  description: 'scratch loop device loop0 (256 MiB)',
}

/** What the kernel ran each label as, and the tunables the run wrote for it. */
const KERNEL: Record<string, { kernel: string; written: Record<string, string>; observed?: string }> = {
  noop: { kernel: 'none', written: {} },
  deadline: { kernel: 'mq-deadline', written: { read_expire: '100', fifo_batch: '16' } },
  bfq: { kernel: 'bfq', written: { slice_idle: '0' }, observed: 'mq-deadline' },
}

/** `run --real` of the labels with two repetitions each, as RealExperimentRunner returns it. */
function realExperiment(): RealExperimentResult {
  const sim = experiment('rw', { noop: [2, 2.2], deadline: [3, 3.1], bfq: [4, 4.2] })
  const runs: RealRunResult[] = syntheticRuns({ noop: [2.1, 2.3], deadline: [3.2, 3.3], bfq: [4, 4.4] }).map(
    (r) => {
      const k = KERNEL[r.label]
      return {
        ...r,
        source: 'real',
        device: target.path,
        real: {
          engine: 'fio',
          engineVersion: 'fio-3.33',
          target,
          kernelScheduler: k.kernel,
          observedScheduler: k.observed ?? k.kernel,
          tunablesWritten: k.written,
          command: ['fio', '--output-format=json', 'job.fio'],
          jobFile: '[global]\nfilename=/dev/loop0\n[reader]\nrw=read\n',
          notes: [],
          maxSeconds: 100,
          vmstat: { tMs: [], biKBps: [], boKBps: [], dirtyMB: [], writebackMB: [], busyCpus: [] },
          ioStartMs: 800,
        },
      }
    },
  )
  return {
    ...sim,
    runs,
    summary: summarizeRuns(runs),
    real: {
      target,
      engine: 'fio',
      engineVersion: 'fio-3.33',
      jobFile: runs[0].real.jobFile,
      command: runs[0].real.command,
      notes: [],
      skipped: [],
    },
  }
}

/** The block under the results table: `real row  kernel scheduler  tunables …` and its rows. */
function kernelBlock(text: string): string[][] {
  const lines = text.split('\n')
  const at = lines.findIndex((l) => l.startsWith('real row'))
  expect(at, text).toBeGreaterThan(0)
  expect(lines[at]).toMatch(/^real row\s+kernel scheduler\s+tunables written \(queue\/iosched\/\)$/)
  const rows: string[][] = []
  for (const l of lines.slice(at + 2)) {
    if (l.trim() === '') break
    rows.push(l.trim().split(/\s{2,}/))
  }
  return rows
}

describe('run --real, text output', () => {
  it('prints each real row’s kernel scheduler and the tunables written for it', () => {
    const real = realExperiment()
    const text = table(combineRuns(null, real))
    expect(kernelBlock(text)).toEqual([
      ['noop (real)', 'none', 'kernel defaults'],
      ['deadline (real)', 'mq-deadline', 'read_expire=100, fifo_batch=16'],
      ['bfq (real)', 'bfq (sysfs showed mq-deadline)', 'slice_idle=0'],
    ])
  })

  it('beside the simulation (--also-simulate): only the real rows get a kernel line', () => {
    const sim = experiment('rw', { noop: [2, 2.2], deadline: [3, 3.1], bfq: [4, 4.2] })
    const text = table(combineRuns(sim, realExperiment()))
    expect(text).toMatch(/^noop\s/m)
    expect(kernelBlock(text).map((r) => r[0])).toEqual(['noop (real)', 'deadline (real)', 'bfq (real)'])
  })

  it('repetitions that ran differently are all shown', () => {
    const real = realExperiment()
    real.runs.find((r) => r.label === 'deadline' && r.repetition === 1)!.real.tunablesWritten = {
      read_expire: '104',
      fifo_batch: '16',
    }
    expect(kernelBlock(table(combineRuns(null, real)))[1]).toEqual([
      'deadline (real)',
      'mq-deadline',
      'read_expire=100, fifo_batch=16 | read_expire=104, fifo_batch=16',
    ])
  })

  it('a simulated run prints no kernel block', () => {
    const text = table(experiment('rw', { noop: [2], deadline: [3] }))
    expect(text).not.toContain('kernel scheduler')
  })
})
