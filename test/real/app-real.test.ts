// The app's real-device API (LabService: devices, realAccess, previewRealRun, startRealRun,
// cancelRun, doctor, startFingerprint, runStatus) against a 256 MiB loop device of the test's own.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, release } from 'node:os'
import { join } from 'node:path'
import type { RealSystemInfo } from '../../src/shared/experiment/real-system'
import type { RunStarted } from '../../src/shared/api/contract'
import type { RealRunStart } from '../../src/shared/api/real-contract'
import { LocalRealBackend } from '../../src/main/services/real/real-backend'
import type { LabService } from '../../src/main/services/lab-service'
import { newService, recorder } from '../api/fixtures'
import {
  activeScheduler,
  cleanupDir,
  createLoop,
  describeReal,
  loopsUnder,
  readWhileWriting,
  tempDir,
  waitFor,
} from './real-env'

const started = (r: RealRunStart): RunStarted => {
  if (!('runId' in r)) throw new Error(`not started: ${JSON.stringify(r)}`)
  return r
}

describeReal('real devices through the LabApi (root, fio, a loop device)', () => {
  let dir = ''
  let disk = { device: '', name: '', file: '' }
  let lab: LabService
  const presets = () => join(dir, 'presets')

  beforeAll(() => {
    dir = tempDir('iosched-app-real-')
    disk = createLoop(dir, 256)
    writeFileSync(`/sys/block/${disk.name}/queue/scheduler`, 'mq-deadline')
    process.env.IOSCHED_LAB_SCRATCH_DIR = dir
    lab = newService({
      real: { backend: new LocalRealBackend(join(dir, 'state')), presetDir: presets },
    })
  })
  afterAll(async () => {
    await lab?.disposeAndWait()
    delete process.env.IOSCHED_LAB_SCRATCH_DIR
    cleanupDir(dir)
  })

  it('lists the devices with their schedulers, and says real runs can go', async () => {
    const d = await lab.devices()
    expect(d.root).toBe(true)
    const mine = d.devices.find((x) => x.name === disk.name)
    expect(mine).toMatchObject({
      type: 'loop',
      activeScheduler: 'mq-deadline',
      inUse: [],
      loopBackingFile: disk.file,
    })
    expect(mine?.schedulers).toEqual(expect.arrayContaining(['none', 'mq-deadline']))
    const vda = d.devices.find((x) => x.name === 'vda')
    if (vda) expect(vda.systemDisk).toBe(true)
    const a = await lab.realAccess()
    expect(a).toMatchObject({ root: true, via: 'root', problems: [], scratchDir: dir })
    expect(a.checks.find((c) => c.what === 'fio')?.ok).toBe(true)
  })

  it('previews the job file and command, and every refusal, before anything runs', async () => {
    const spec = readWhileWriting(2, ['noop', 'deadline'])
    const scratch = await lab.previewRealRun({
      spec,
      target: { kind: 'scratch' },
      fioArgs: ['--status-interval=1'],
    })
    expect(scratch.ok).toBe(true)
    expect(scratch.jobFile).toContain('[writer]')
    expect(scratch.jobFile).toContain('[reader]')
    expect(scratch.command).toMatch(/^fio --output-format=json\+ .*--status-interval=1 /)
    expect(scratch.target.description).toContain('scratch loop device of 256 MiB')
    const unconfirmed = await lab.previewRealRun({ spec, target: { kind: 'device', name: disk.name } })
    expect(unconfirmed.ok).toBe(false)
    expect(unconfirmed.problems.join()).toContain(`--confirm ${disk.name}`)
    const wrong = await lab.previewRealRun({
      spec,
      target: { kind: 'device', name: disk.name, confirm: 'sdz' },
    })
    expect(wrong.ok).toBe(false)
    const confirmed = await lab.previewRealRun({
      spec,
      target: { kind: 'device', name: disk.name, confirm: disk.name },
    })
    expect(confirmed).toMatchObject({ ok: true, problems: [] })
    expect(confirmed.command).toContain('fio ')
    const system = await lab.previewRealRun({ spec, target: { kind: 'device', name: 'vda', confirm: 'vda' } })
    expect(system.ok).toBe(false)
    expect(system.problems.join()).toMatch(/refusing \/dev\/vda: it is in use/)
    const badArgs = await lab.previewRealRun({
      spec,
      target: { kind: 'scratch' },
      fioArgs: ['--filename=/dev/vda'],
    })
    expect(badArgs.problems.join()).toContain('the lab chooses the device')
    // the same refusals when asked to run: nothing starts, nothing is touched
    await expect(
      lab.startRealRun({ spec, target: { kind: 'device', name: 'vda', confirm: 'vda' } }),
    ).resolves.toEqual({
      problems: [expect.stringContaining('refusing /dev/vda')],
    })
    await expect(lab.startRealRun({ spec, target: { kind: 'device', name: disk.name } })).resolves.toEqual({
      problems: [expect.stringContaining(`--confirm ${disk.name}`)],
    })
    const bad = await lab.startRealRun({
      spec: { ...spec, schedulers: ['noop', 'elevator-x'] },
      target: { kind: 'scratch' },
    })
    expect(bad).toHaveProperty('issues')
  })

  it('refuses a simulated companion beyond the work limits before anything starts', async () => {
    const spec = {
      ...readWhileWriting(1, ['noop']),
      workload: {
        processes: [{ name: 'rr', type: 'random-read', params: { count: 1e12, direct: true } }],
        stop: { maxSeconds: 1e7 },
      },
    }
    const r = await lab.startRealRun({ spec, target: { kind: 'scratch' } })
    expect(r).toEqual({
      problems: [
        expect.stringMatching(/^the run is refused before it starts: .*untick “also simulate”/),
        expect.stringMatching(/^up to 1e12 I\/O requests in one run/),
      ],
    })
  })

  it('runs a spec for real beside its simulation: one result, the scheduler restored', async () => {
    const rec = recorder(lab)
    const spec = readWhileWriting(2, ['noop', 'deadline'])
    const seen: string[] = []
    lab.on((e) => {
      if (e.type === 'run:progress' && e.job.source === 'real')
        seen.push(`${e.job.label}:${activeScheduler(disk.name)}`)
    })
    const run = started(
      await lab.startRealRun({ spec, target: { kind: 'device', name: disk.name, confirm: disk.name } }),
    )
    expect(run.jobs.map((j) => `${j.label}${j.source ? ' (real)' : ''}`)).toEqual([
      'noop',
      'deadline',
      'noop (real)',
      'deadline (real)',
    ])
    const { done, result } = await rec.done(run.runId)
    expect(done.failures).toEqual([])
    expect(result.runs.map((r) => `${r.label}/${r.source}`)).toEqual([
      'noop/simulated',
      'noop/real',
      'deadline/simulated',
      'deadline/real',
    ])
    expect(done.result.summary.map((s) => `${s.label}/${s.source}`)).toEqual([
      'noop/simulated',
      'noop/real',
      'deadline/simulated',
      'deadline/real',
    ])
    expect(done.result.spec.device.preset).toContain(`/dev/${disk.name}`)
    expect((done.result as { real?: { jobFile: string } }).real?.jobFile).toContain('[reader]')
    // the kernel's schedulers while fio ran, and the original one after
    expect(seen.some((s) => s === 'noop:none')).toBe(true)
    expect(seen.some((s) => s === 'deadline:mq-deadline')).toBe(true)
    expect(activeScheduler(disk.name)).toBe('mq-deadline')
    // before fio's first progress, each real run said what it did
    const phases = rec.events.flatMap((e) =>
      e.type === 'run:progress' && e.runId === run.runId && e.phase ? [`${e.job.label}: ${e.phase}`] : [],
    )
    for (const [label, kernel] of [
      ['noop', 'none'],
      ['deadline', 'mq-deadline'],
    ]) {
      expect(phases).toContain(`${label}: dropping the page cache (sync, drop_caches)`)
      expect(phases).toContain(`${label}: switching ${disk.name} to ${kernel}`)
      expect(phases).toContain(`${label}: starting fio: laying out its jobs`)
    }
    // the whole device's start: checked, not prepared
    expect(phases[0]).toBe(`noop: checking /dev/${disk.name} before switching its scheduler`)
    // each real run holds the machine and device it was measured on
    for (const r of result.runs.filter((x) => x.source === 'real')) {
      const sys = (r as { real?: { system?: RealSystemInfo } }).real?.system
      expect(sys?.kernel.release).toBe(release())
      expect(sys?.cpu.count).toBe(cpus().length)
      expect(sys?.device).toMatchObject({ name: disk.name, sizeBytes: 256 * 2 ** 20 })
      expect(sys?.device.scheduler).toBe(r.label === 'noop' ? 'none' : 'mq-deadline')
      expect(sys?.device.queue.nr_requests).toMatch(/^\d+$/)
      expect(sys?.backing?.file).toBe(disk.file)
      expect(sys?.backing?.directIo).toBe(true)
      expect(sys?.backing?.fileSystem?.type).toBe(
        execFileSync('findmnt', ['-n', '-o', 'FSTYPE', '--target', disk.file], { encoding: 'utf8' }).trim(),
      )
    }
    const jobDone = rec.events.filter((e) => e.type === 'run:job-done' && e.runId === run.runId)
    expect(jobDone).toHaveLength(4)
    // a client that lost its events gets the outcome back
    const status = await lab.runStatus({ runId: run.runId })
    expect(status.state).toBe('done')
    expect(status.started?.jobs).toHaveLength(4)
    expect(status.events.at(-1)?.type).toBe('run:done')
  }, 90_000)

  it('simulates the companion with the real rows’ time limit and host, and says so', async () => {
    const rec = recorder(lab)
    const spec = { ...readWhileWriting(30, ['noop']), host: { preset: 'linux-2003' } }
    const run = started(
      await lab.startRealRun({
        spec,
        maxSeconds: 1,
        target: { kind: 'device', name: disk.name, confirm: disk.name },
      }),
    )
    expect(run.jobs).toEqual([
      { point: 0, schedIndex: 0, repetition: 0, label: 'noop', maxSimSeconds: 1 },
      { point: 0, schedIndex: 0, repetition: 0, label: 'noop', source: 'real', maxSeconds: 1 },
    ])
    const { done, result } = await rec.done(run.runId)
    expect(done.failures).toEqual([])
    for (const r of result.runs) expect(r.seconds).toBeLessThanOrEqual(1.5)
    expect(result.runs.find((r) => r.source === 'real')?.stoppedBy).toBe('time-limit')
    expect(done.result.spec.host.preset).toBe('linux-modern (simulated), this machine (real)')
    const notices = rec.events.flatMap((e) =>
      e.type === 'run:notice' && e.runId === run.runId ? [e.message] : [],
    )
    expect(notices).toContain(
      "the simulated rows run on the host the real rows ran on (linux-modern with this machine, captured now), not on the spec's linux-2003, so that the columns compare",
    )
  }, 60_000)

  it('repeats a real run and its simulation until stable: the extra repetitions join the run as jobs', async () => {
    const rec = recorder(lab)
    // random reads alone, simulated on a disk (where their offsets matter, and the seed changes
    // with the repetition) and run on the real device (noisy): neither repeats to within a
    // millionth of a percent, so 2 runs, then the cap of 3 — for both
    const base = readWhileWriting(0.5, ['noop']) as { workload: { processes: { name: string }[] } }
    const spec = {
      ...base,
      device: { preset: 'hdd-7200-sata' },
      workload: { ...base.workload, processes: base.workload.processes.filter((p) => p.name === 'reader') },
      untilStable: { cvPercent: 0.000001, maxRepetitions: 3 },
    }
    const run = started(
      await lab.startRealRun({
        spec: { ...spec, repetitions: 2 },
        target: { kind: 'device', name: disk.name, confirm: disk.name },
      }),
    )
    expect(run.jobs.map((j) => `${j.label}#${j.repetition}/${j.source ?? 'simulated'}`)).toEqual([
      'noop#0/simulated',
      'noop#1/simulated',
      'noop#0/real',
      'noop#1/real',
    ])
    const { done, result } = await rec.done(run.runId)
    expect(done.failures).toEqual([])
    const added = rec.events.flatMap((e) =>
      e.type === 'run:jobs-added' && e.runId === run.runId ? e.jobs : [],
    )
    expect(added).toEqual([
      // the simulated job shows its progress against its simulated-time bound
      { point: 0, schedIndex: 0, repetition: 2, label: 'noop', maxSimSeconds: 0.5 },
      // the real one against its time limit
      { point: 0, schedIndex: 0, repetition: 2, label: 'noop', source: 'real', maxSeconds: 0.5 },
    ])
    expect(result.runs.map((r) => `${r.label}#${r.repetition}/${r.source}`).sort()).toEqual([
      'noop#0/real',
      'noop#0/simulated',
      'noop#1/real',
      'noop#1/simulated',
      'noop#2/real',
      'noop#2/simulated',
    ])
    const notices = rec.events.flatMap((e) =>
      e.type === 'run:notice' && e.runId === run.runId ? [e.message] : [],
    )
    const said = (re: RegExp): boolean => notices.some((m) => re.test(m))
    expect(
      said(/^simulated, repeating until stable: noop: 2 runs, CV [\d.]+ % \(\w+\) — not stable yet$/),
    ).toBe(true)
    expect(said(/^simulated, repeated until stable: noop: 3 runs, .* — run cap reached$/)).toBe(true)
    expect(activeScheduler(disk.name)).toBe('mq-deadline')
  }, 60_000)

  it('cancels a real run on a scratch device: fio stopped, device detached, run ends as cancelled', async () => {
    const rec = recorder(lab)
    const run = started(
      await lab.startRealRun({
        spec: readWhileWriting(30, ['deadline']),
        target: { kind: 'scratch' },
        alsoSimulate: false,
      }),
    )
    expect(run.jobs).toEqual([expect.objectContaining({ label: 'deadline', source: 'real' })])
    await waitFor(
      () => rec.events.some((e) => e.type === 'run:progress' && e.runId === run.runId && e.fraction > 0),
      30_000,
      'fio to report progress',
    )
    expect(loopsUnder(dir)).toHaveLength(2)
    await expect(lab.cancelRun({ runId: run.runId })).resolves.toBe(true)
    const failed = await rec.until('run:failed', run.runId)
    expect(failed).toMatchObject({ cancelled: true, message: 'cancelled' })
    // the test's own device stays; the scratch one is gone
    expect(loopsUnder(dir)).toEqual([disk.device])
    expect((await lab.runStatus({ runId: run.runId })).state).toBe('cancelled')
    await expect(lab.cancelRun({ runId: run.runId })).resolves.toBe(false)
  }, 90_000)

  it('fingerprints the device, saves the preset, and the catalogue lists it', async () => {
    const rec = recorder(lab)
    const r = await lab.startFingerprint({
      target: { kind: 'device', name: disk.name, confirm: disk.name },
      seconds: 1,
      name: 'test-loop-fp',
    })
    if (!('runId' in r)) throw new Error(r.problems.join('\n'))
    const done = await rec.until('fingerprint:done', r.runId)
    expect(done.outcome).toMatchObject({ name: 'test-loop-fp', path: join(presets(), 'test-loop-fp.json') })
    expect(done.outcome.points.map((p) => p.name)).toContain('qd1-randread')
    expect(rec.events.some((e) => e.type === 'fingerprint:progress' && e.runId === r.runId)).toBe(true)
    expect(existsSync(done.outcome.path)).toBe(true)
    expect(JSON.parse(readFileSync(done.outcome.path, 'utf8')).schema).toBe('iosched-lab/device-preset@1')
    const cat = await lab.catalogue()
    expect(cat.devices.presets.map((p) => p.name)).toContain('test-loop-fp')
    const v = await lab.validateSpec({
      spec: { ...readWhileWriting(1, ['noop']), device: { preset: 'test-loop-fp' } },
    })
    expect(v.ok).toBe(true)
    expect(activeScheduler(disk.name)).toBe('mq-deadline')
    // the sweep and its fit: 89.9 s on a busy machine at 2c00848, 95 s at this session's (the
    // devices e2e fingerprint waits 180 s for the same reason)
  }, 180_000)

  it('doctor checks and has nothing to repair', async () => {
    const d = await lab.doctor()
    expect(d).toMatchObject({ root: true, problems: [], stateDir: join(dir, 'state') })
    expect(d.checks.map((c) => c.what)).toEqual(expect.arrayContaining(['root', 'fio', 'losetup']))
  })
})
