import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFileSync } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { parseFioOutput } from '../../src/shared/formats/fio-json'
import type { FioJobReport } from '../../src/shared/formats/fio-json'
import { translateSpec } from '../../src/main/services/real/fio-job'
import { jobFinished, processesFromReport } from '../../src/main/services/real/fio-result'
import { describeWithFio, tempDir } from './real-env'
import { summarizeRuns } from '../../src/shared/experiment/compare'
import { table } from '../../src/cli/commands/run'
import { syntheticRuns } from '../report/runs'

const MiB = 1 << 20

/** A time-based fio reader with its own runtime, beside a size-based one. */
const spec = (runtime: number) =>
  resolveSpec({
    device: { preset: 'ssd-sata-mlc' },
    workload: {
      files: [{ name: 'a', size: '4M' }],
      processes: [
        {
          name: 'timed',
          type: 'fio',
          params: { rw: 'randread', bs: '4k', size: '4M', filename: 'a', time_based: true, runtime },
        },
      ],
      stop: { maxSeconds: 60 },
    },
    schedulers: ['noop'],
  })

describe('judging whether a fio job finished', () => {
  const report = (job_runtime: number, io_bytes = 0): FioJobReport =>
    ({ job_runtime, read: { io_bytes }, write: { io_bytes: 0 }, trim: { io_bytes: 0 } }) as FioJobReport

  it('counts a time-based job that ran for its own runtime as finished', () => {
    const plan = translateSpec(spec(2), { path: '/dev/loop9', sizeBytes: 1 << 30, description: 'test' })
    const e = plan.jobs[0]
    expect(e.plannedBytes).toBe(0)
    expect(e.ownRuntimeMs).toBe(2000)
    expect(Object.fromEntries(e.options).runtime).toBe('2000ms')
    expect(jobFinished(report(2003), e, 5 * MiB)).toBe(true)
    // ended early (another job's exitall, or a failure): not finished
    expect(jobFinished(report(1200), e, 5 * MiB)).toBe(false)
  })

  it('does not count a job cut by the run’s time limit (--max-seconds) as finished', () => {
    const plan = translateSpec(
      spec(2),
      { path: '/dev/loop9', sizeBytes: 1 << 30, description: 'test' },
      {
        maxSeconds: 1,
      },
    )
    const e = plan.jobs[0]
    expect(e.ownRuntimeMs).toBe(0)
    expect(Object.fromEntries(e.options).runtime).toBe('1000ms')
    expect(jobFinished(report(1001), e, 5 * MiB)).toBe(false)
  })
})

/** The same judgement on fio's own report of a short time-based run on a file (no root). */
describeWithFio('a real time-based fio run', () => {
  let dir = ''
  beforeAll(() => {
    dir = tempDir('iosched-fio-finished-')
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const run = (maxSeconds?: number) => {
    const data = join(dir, 'data')
    execFileSync('truncate', ['-s', '16M', data])
    const plan = translateSpec(
      spec(0.6),
      { path: data, sizeBytes: 16 * MiB, description: 'a file' },
      {
        maxSeconds,
      },
    )
    const job = join(dir, 'job.fio')
    const out = join(dir, 'out.json')
    writeFileSync(job, plan.text)
    execFileSync('fio', ['--output-format=json+', `--output=${out}`, job])
    return processesFromReport(parseFioOutput(readFileSync(out, 'utf8'), out).jobs, plan.jobs, out)[0]
  }

  it('is finished when it ran to its runtime, and not when the run’s limit cut it', () => {
    const whole = run()
    expect(whole.bytes).toBeGreaterThan(0)
    expect(whole.finished).toBe(true)
    const cut = run(0.3)
    expect(cut.bytes).toBeGreaterThan(0)
    expect(cut.finished).toBe(false)
  })
})

describe('the table’s note on unfinished stop processes', () => {
  it('names the time limit each run had: the spec’s, and --max-seconds for real runs', () => {
    const s = resolveSpec({
      device: { preset: 'ssd-sata-mlc' },
      workload: {
        processes: [{ name: 'reader', type: 'cat', params: { size: '1M' } }],
        stop: { maxSeconds: 600 },
      },
      schedulers: ['noop'],
    })
    const runs = syntheticRuns({ noop: [3, 3] })
    runs.forEach((r) => (r.processes[0].finished = false))
    runs[1].source = 'real'
    Object.assign(runs[1], { real: { maxSeconds: 5 } })
    const text = table({
      schema: 'iosched-lab/experiment@1',
      name: 'x',
      spec: s,
      runs,
      summary: summarizeRuns(runs),
    })
    expect(text).toContain('not finished within 600 s: noop: reader')
    expect(text).toContain('not finished within 5 s: noop (real): reader')
    expect(text).not.toContain('within 600 s: noop: reader, noop (real)')
  })
})
