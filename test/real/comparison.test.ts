import { afterAll, beforeAll, expect, it } from 'vitest'
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { CancelledError } from '../../src/main/services/real/engine-plan'
import { RealExperimentRunner } from '../../src/main/services/real/real-experiment'
import type { RealTargetInfo } from '../../src/main/services/real/real-result'
import { resolveRealSpec } from '../../src/main/services/real/real-spec'
import { processGroupMembers } from '../../src/main/services/real/proc-identity'
import {
  KERNEL_OFFERED,
  OTHER_SCHEDULER,
  activeScheduler,
  cleanupDir,
  createLoop,
  describeReal,
  loopsUnder,
  readWhileWriting,
  tempDir,
} from './real-env'

/** The kernel's schedulers this machine has (bfq only where the kernel was built with it). */
const KERNEL = [...KERNEL_OFFERED]
/** Each with a tunable of its own to write (the lab's value, the sysfs file and what it holds). */
const ENTRY: Record<string, { entry: unknown; file?: string; holds?: string }> = {
  none: { entry: { name: 'none', label: 'none' } },
  'mq-deadline': { entry: 'mq-deadline', file: 'read_expire', holds: '500' },
  kyber: {
    entry: { name: 'kyber', tunables: { read_lat_nsec: 3_000_000 } },
    file: 'read_lat_nsec',
    holds: '3000000',
  },
  bfq: { entry: { name: 'bfq', tunables: { slice_idle: 4 } }, file: 'slice_idle', holds: '4' },
}

const specOf = (seconds: number, schedulers: unknown[]) => {
  const v = resolveRealSpec(readWhileWriting(seconds, schedulers))
  if (!v.ok) throw new Error(v.issues.map((i) => `${i.path}: ${i.message}`).join('\n'))
  return v.spec
}

describeReal('the same comparison on a real device (root, fio, loop devices)', () => {
  let dir = ''
  let disk = { device: '', name: '', file: '' }
  const state = () => join(dir, 'state')
  const iosched = (f: string) => join('/sys/block', disk.name, 'queue/iosched', f)

  beforeAll(() => {
    dir = tempDir('iosched-real-')
    // the test's own 256 MiB loop device; its "original" setting is mq-deadline with read_expire 200 ms
    disk = createLoop(dir, 256)
    writeFileSync(`/sys/block/${disk.name}/queue/scheduler`, 'mq-deadline')
    writeFileSync(iosched('read_expire'), '200')
  })
  // detached (and the scratch devices under dir too) even when a test fails
  afterAll(() => cleanupDir(dir))

  it(`runs ${KERNEL.join(', ')} on it, switched during each run and restored after`, async () => {
    const spec = specOf(
      2,
      KERNEL.map((k) => ENTRY[k].entry),
    )
    const readExpire = () => Number(readFileSync(iosched('read_expire'), 'utf8'))
    const duringRun: Record<string, string[]> = {}
    const afterRun: Record<string, [string, number]> = {}
    const started = Date.now()
    const r = await new RealExperimentRunner().run(
      spec,
      { target: { kind: 'device', name: disk.name, confirm: disk.name }, stateDir: state(), sampleMs: 250 },
      {
        // fio is running whenever it prints a progress line: read sysfs ourselves then
        progress: (label) => (duringRun[label] ??= []).push(activeScheduler(disk.name)),
        runDone: (label) => (afterRun[label] = [activeScheduler(disk.name), readExpire()]),
        failed: (label, _rep, m) => {
          throw new Error(`${label} failed: ${m}`)
        },
      },
    )
    const seconds = (Date.now() - started) / 1000
    expect(KERNEL.length).toBeGreaterThanOrEqual(3)
    expect(r.runs.map((x) => x.label)).toEqual(KERNEL)
    r.runs.forEach((run, i) => {
      expect(run.source).toBe('real')
      expect(run.real.kernelScheduler).toBe(KERNEL[i])
      // the lab's own check, and ours: sysfs showed the scheduler while fio ran
      expect(run.real.observedScheduler).toBe(KERNEL[i])
      expect(duringRun[run.label]?.length, `progress lines during ${run.label}`).toBeGreaterThan(0)
      expect(new Set(duringRun[run.label])).toEqual(new Set([KERNEL[i]]))
      // …and the original scheduler and tunable were back right after it
      expect(afterRun[run.label]).toEqual(['mq-deadline', 200])
      // parsed: both processes, their bytes, operations and latency histograms
      const w = run.processes.find((p) => p.name === 'writer')!
      const rd = run.processes.find((p) => p.name === 'reader')!
      expect(w.writeBytes).toBeGreaterThan(0)
      expect(rd.readBytes).toBeGreaterThan(0)
      expect(rd.ops).toBe(rd.readBytes / 4096)
      expect(rd.latency.count).toBe(rd.ops)
      expect(rd.latencyMs.p50).toBeGreaterThan(0)
      expect(rd.latencyMs.p99).toBeGreaterThanOrEqual(rd.latencyMs.p50)
      expect(run.seconds).toBeGreaterThan(1)
      expect(run.seconds).toBeLessThanOrEqual(3)
      // device side from /proc/diskstats, sampled into the simulator's series
      expect(run.totals.readBytes).toBeGreaterThan(0)
      expect(run.totals.writeBytes).toBeGreaterThan(0)
      expect(run.timeSeries.tMs.length).toBeGreaterThanOrEqual(4)
      expect(Math.max(...run.timeSeries.readMBps)).toBeGreaterThan(0)
      expect(run.real.vmstat.tMs).toHaveLength(run.timeSeries.tMs.length)
    })
    KERNEL.forEach((k, i) => {
      const { file, holds } = ENTRY[k]
      if (file) expect(r.runs[i].real.tunablesWritten).toMatchObject({ [file]: holds })
    })
    expect(r.summary.map((s) => [s.label, s.source])).toEqual(r.runs.map((x) => [x.label, 'real']))
    expect(activeScheduler(disk.name)).toBe('mq-deadline')
    expect(readExpire()).toBe(200)
    expect(existsSync(join(state(), 'journal')) ? readdirSync(join(state(), 'journal')) : []).toEqual([])
    console.info(`${KERNEL.length} real runs of 2 s took ${seconds.toFixed(1)} s`)
  }, 120_000)

  it('creates, uses and detaches a scratch loop device of its own', async () => {
    let target: RealTargetInfo | null = null
    const r = await new RealExperimentRunner().run(
      specOf(1, ['kyber']),
      { target: { kind: 'scratch', sizeBytes: 256 << 20, parentDir: dir }, stateDir: state() },
      { targetReady: (t) => (target = t) },
    )
    expect(target).toMatchObject({ kind: 'scratch-loop', sizeBytes: 256 << 20 })
    expect(r.runs[0].real.target.path).toMatch(/^\/dev\/loop\d+$/)
    expect(r.runs[0].real.observedScheduler).toBe('kyber')
    expect(loopsUnder(dir)).toEqual([disk.device])
    expect(readdirSync(dir).filter((f) => f.startsWith('iosched-lab-scratch-'))).toEqual([])
  }, 60_000)

  it('detaches the scratch device when fio fails', async () => {
    const failures: string[] = []
    const r = await new RealExperimentRunner().run(
      specOf(1, ['kyber']),
      { target: { kind: 'scratch', parentDir: dir }, stateDir: state(), fioArgs: ['--not-a-fio-option=1'] },
      { failed: (_l, _r, m) => failures.push(m) },
    )
    expect(r.runs).toEqual([])
    expect(failures[0]).toMatch(/^fio exited with status 1/)
    expect(loopsUnder(dir)).toEqual([disk.device])
    expect(readdirSync(dir).filter((f) => f.startsWith('iosched-lab-scratch-'))).toEqual([])
  }, 60_000)

  it('cancels in the middle of a run: fio’s group killed, scheduler restored at once', async () => {
    const runner = new RealExperimentRunner()
    let pgid = 0
    let cancelled: Promise<void> | null = null
    const run = runner.run(
      specOf(30, [OTHER_SCHEDULER]),
      { target: { kind: 'device', name: disk.name, confirm: disk.name }, stateDir: state() },
      {
        progress: () => {
          if (cancelled) return
          expect(activeScheduler(disk.name)).toBe(OTHER_SCHEDULER)
          const j = readdirSync(join(state(), 'journal'))
          pgid = (
            JSON.parse(readFileSync(join(state(), 'journal', j[0]), 'utf8')) as {
              groups: { pgid: number }[]
            }
          ).groups[0].pgid
          cancelled = runner.cancel()
        },
      },
    )
    await expect(run).rejects.toBeInstanceOf(CancelledError)
    await cancelled
    expect(pgid).toBeGreaterThan(0)
    expect(processGroupMembers(pgid)).toEqual([])
    expect(activeScheduler(disk.name)).toBe('mq-deadline')
    expect(readdirSync(join(state(), 'journal'))).toEqual([])
  }, 60_000)
})
