// Validating the simulation from the app (LabService: fingerprintPresets, startValidation,
// cancelRun, runStatus) on a 256 MiB loop device of the test's own, reusing a fingerprint preset
// (written here: the fit is not what is tested) so that one workload of the matrix is enough.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { LabEvent } from '../../src/shared/api/lab-events'
import type { LabService } from '../../src/main/services/lab-service'
import { LocalRealBackend } from '../../src/main/services/real/real-backend'
import { readJournals } from '../../src/main/services/real/journal'
import { newService, recorder } from '../api/fixtures'
import {
  activeScheduler,
  cleanupDir,
  createLoop,
  describeReal,
  readScheduler,
  tempDir,
  waitFor,
} from './real-env'

type Ended = Extract<LabEvent, { type: 'validate:done' | 'validate:failed' }>

/** A fingerprint preset as `iosched-lab fingerprint` saves it, with just what a validation reads. */
const fingerprintDoc = (name: string) => ({
  schema: 'iosched-lab/device-preset@1',
  name,
  model: 'virtual',
  basePreset: 'loop-dio-virtio',
  description: 'a loop device, fingerprinted (test)',
  values: {},
  sources: {},
  measured: {
    target: { name: 'loop9', description: 'loop device /dev/loop9', sizeBytes: 256 << 20, rotational: false },
    seconds: 1,
    passes: 2,
    points: [],
  },
  simulated: { points: [] },
  fit: {},
  residuals: { 'qd1-randread': { iops: -0.04, p50: 0.02, noise: 0.1, ok: true } },
  specDevice: { preset: 'loop-dio-virtio', overrides: {} },
})

describeReal('validating the simulation through the LabApi (root, fio, a loop device)', () => {
  let dir = ''
  let disk = { device: '', name: '', file: '' }
  let lab: LabService
  const presets = () => join(dir, 'presets')
  const state = () => join(dir, 'state')
  const onDisk = () => ({ kind: 'device' as const, name: disk.name, confirm: disk.name })
  const ended = (rec: ReturnType<typeof recorder>, runId: string): Promise<Ended> =>
    Promise.race([rec.until('validate:done', runId), rec.until('validate:failed', runId)])
  /** The kernel's schedulers the lab validates that this device offers. */
  const offered = () =>
    ['none', 'mq-deadline', 'kyber', 'bfq'].filter((s) =>
      readScheduler(disk.name).replace(/[[\]]/g, '').split(/\s+/).includes(s),
    )

  beforeAll(() => {
    dir = tempDir('iosched-app-validate-')
    disk = createLoop(dir, 256)
    writeFileSync(`/sys/block/${disk.name}/queue/scheduler`, 'mq-deadline')
    process.env.IOSCHED_LAB_SCRATCH_DIR = dir
    mkdirSync(presets())
    writeFileSync(join(presets(), 'test-fp.json'), JSON.stringify(fingerprintDoc('test-fp')))
    // a preset written by hand holds no fingerprint; a broken file is a problem, said
    writeFileSync(
      join(presets(), 'by-hand.json'),
      JSON.stringify({ schema: 'iosched-lab/device-preset@1', name: 'by-hand', model: 'flash', values: {} }),
    )
    writeFileSync(join(presets(), 'broken.json'), '{ "schema": ')
    lab = newService({ real: { backend: new LocalRealBackend(state()), presetDir: presets } })
  })
  afterAll(async () => {
    await lab?.disposeAndWait()
    delete process.env.IOSCHED_LAB_SCRATCH_DIR
    cleanupDir(dir)
  })

  it('lists the fingerprinted presets a validation can reuse, and the files it could not read', async () => {
    const p = await lab.fingerprintPresets()
    expect(p.presets).toEqual([
      {
        name: 'test-fp',
        model: 'virtual',
        path: join(presets(), 'test-fp.json'),
        target: 'loop device /dev/loop9',
        description: 'a loop device, fingerprinted (test)',
        worstResidual: 0.04,
      },
    ])
    expect(p.problems).toEqual([expect.stringContaining(join(presets(), 'broken.json'))])
  })

  it('refuses what a fingerprint refuses, and a preset it does not have, before anything starts', async () => {
    await expect(
      lab.startValidation({ target: { kind: 'device', name: 'vda', confirm: 'vda' }, quick: true }),
    ).resolves.toEqual({ problems: [expect.stringContaining('refusing /dev/vda')] })
    await expect(lab.startValidation({ target: { kind: 'device', name: disk.name } })).resolves.toEqual({
      problems: [expect.stringContaining(`--confirm ${disk.name}`)],
    })
    await expect(lab.startValidation({ target: onDisk(), presetName: 'by-hand' })).resolves.toEqual({
      problems: [`no fingerprinted preset named "by-hand" in ${presets()}; there are test-fp`],
    })
    expect(activeScheduler(disk.name)).toBe('mq-deadline')
    expect(readJournals(state())).toEqual([])
  })

  it('validates one workload on the reused preset: stages and fio progress, the report, the scheduler restored', async () => {
    const rec = recorder(lab)
    const r = await lab.startValidation({
      target: onDisk(),
      presetName: 'test-fp',
      only: ['randread-qd1'],
      seconds: 1,
    })
    if (!('runId' in r)) throw new Error(r.problems.join('\n'))
    const end = await ended(rec, r.runId)
    if (end.type === 'validate:failed') throw new Error(end.message)
    const progress = rec.events.flatMap((e) =>
      e.type === 'validate:progress' && e.runId === r.runId ? [e] : [],
    )
    // the workload, then the fingerprint's sweep measured again
    expect(progress[0]).toMatchObject({ stage: 'randread-qd1', k: 1, n: 2, run: null })
    expect(progress.some((e) => e.stage === 'drift check' && e.k === 2 && e.n === 2)).toBe(true)
    // each real run as it starts (1 s runs end before fio says how far they are: the cancel test sees that)
    expect(progress.some((e) => e.run?.label === 'none')).toBe(true)
    const { report } = end
    expect(report).toMatchObject({
      schema: 'iosched-lab/validate@1',
      target: { name: disk.name },
      preset: { name: 'test-fp', from: join(presets(), 'test-fp.json'), worstResidual: 0.04 },
      options: { seconds: 1 },
    })
    expect(report.workloads.map((w) => w.id)).toEqual(['randread-qd1'])
    for (const s of offered()) {
      expect(report.workloads[0].runs[s]?.real, s).toBeGreaterThanOrEqual(2)
      expect(report.workloads[0].runs[s]?.simulated, s).toBeGreaterThanOrEqual(2)
    }
    expect(report.summary.met.fingerprintResidual).toBe(true)
    expect(activeScheduler(disk.name)).toBe('mq-deadline')
    expect(readJournals(state())).toEqual([])
    const status = await lab.runStatus({ runId: r.runId })
    expect(status.state).toBe('done')
    expect(status.events.at(-1)?.type).toBe('validate:done')
  }, 300_000)

  it('fingerprints first when no preset is named, and keeps that fingerprint as a user preset', async () => {
    const rec = recorder(lab)
    const r = await lab.startValidation({ target: onDisk(), quick: true, only: ['randread-qd1'], seconds: 1 })
    if (!('runId' in r)) throw new Error(r.problems.join('\n'))
    const end = await ended(rec, r.runId)
    if (end.type === 'validate:failed') throw new Error(end.message)
    const listed = (await lab.fingerprintPresets()).presets.filter((p) => p.name !== 'test-fp')
    expect(listed).toHaveLength(1)
    expect(listed[0].path).toBe(join(presets(), `${listed[0].name}.json`))
    expect(end.report.preset).toMatchObject({
      name: listed[0].name,
      from: `fingerprint fitted over the validation's span, saved to ${listed[0].path}`,
    })
    const notices = rec.events.flatMap((e) =>
      e.type === 'run:notice' && e.runId === r.runId ? [e.message] : [],
    )
    // saved as soon as it was fitted, then in its place the fit over the validation's span
    expect(notices).toContain(
      `the fingerprint is saved as device preset ${listed[0].name} (${listed[0].path})`,
    )
    expect(notices).toContain(
      `the fingerprint fitted over the validation's span is saved as device preset ${listed[0].name} (${listed[0].path})`,
    )
    // the saved file is the fitted preset the report validated
    const saved = JSON.parse(readFileSync(listed[0].path, 'utf8')) as {
      specDevice: unknown
      bracketed?: unknown
    }
    expect(saved.specDevice).toEqual(end.report.preset.device)
    expect(saved.bracketed).toBeDefined()
    expect(activeScheduler(disk.name)).toBe('mq-deadline')
    expect(readJournals(state())).toEqual([])
  }, 300_000)

  it('cancels a validation through cancelRun: fio stopped, the scheduler restored, ends as cancelled', async () => {
    const rec = recorder(lab)
    const r = await lab.startValidation({
      target: onDisk(),
      presetName: 'test-fp',
      only: ['randread-qd1'],
      seconds: 60,
    })
    if (!('runId' in r)) throw new Error(r.problems.join('\n'))
    await waitFor(
      () =>
        rec.events.some(
          (e) => e.type === 'validate:progress' && e.runId === r.runId && (e.fraction ?? 0) > 0,
        ),
      30_000,
      'fio to report progress',
    )
    await expect(lab.cancelRun({ runId: r.runId })).resolves.toBe(true)
    const end = await ended(rec, r.runId)
    expect(end).toMatchObject({ type: 'validate:failed', cancelled: true, message: 'cancelled' })
    expect(activeScheduler(disk.name)).toBe('mq-deadline')
    expect(readJournals(state())).toEqual([])
    expect((await lab.runStatus({ runId: r.runId })).state).toBe('cancelled')
    await expect(lab.cancelRun({ runId: r.runId })).resolves.toBe(false)
  }, 90_000)
})
