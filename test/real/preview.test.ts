import { afterAll, describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BlockDevice } from '../../src/main/services/real/block-devices'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { previewRealRun } from '../../src/main/services/real/real-plan'
import type { TargetLookup } from '../../src/main/services/real/target'
import { cliPath, root } from './real-env'

/**
 * The preview (`run --real --dry-run/--show-job`, the app's previewRealRun) goes through the
 * real run's own planning. Devices are described here, never looked up: nothing is opened.
 */
const GiB = 2 ** 30
const dev = (over: Partial<BlockDevice>): BlockDevice => ({
  name: 'sdx',
  path: '/dev/sdx',
  type: 'disk',
  majMin: '8:96',
  sizeBytes: 8 * GiB,
  model: 'TEST DISK',
  serial: null,
  transport: 'sata',
  rotational: true,
  readOnly: false,
  schedulers: ['none', 'mq-deadline', 'bfq'],
  activeScheduler: 'mq-deadline',
  loopBackingFile: null,
  partitions: [],
  mounts: [],
  inUse: [],
  systemDisk: false,
  ...over,
})
const system = dev({ mounts: ['/dev/sdx on /'], inUse: ['mounted: /dev/sdx on /'], systemDisk: true })

const state = mkdtempSync(join(tmpdir(), 'iosched-preview-'))
afterAll(() => rmSync(state, { recursive: true, force: true }))

const lookup = (d: BlockDevice | undefined, free = 100 * GiB): TargetLookup => ({
  findDevice: async (name) => (d && d.name === name ? d : undefined),
  exclusiveOpen: () => true,
  freeBytes: () => free,
})

/** A raw-device random reader; with `write`, a dd writing 16 MiB to the raw device too. */
const spec = (write: boolean) =>
  resolveSpec({
    device: { preset: 'ssd-sata-mlc' },
    workload: {
      processes: [
        { name: 'rr', type: 'random-read', params: { file: '/dev', size: '1T', bs: '4k', count: 100 } },
        ...(write
          ? [{ name: 'w', type: 'dd', params: { op: 'write', file: '/dev', bs: '1M', count: 16 } }]
          : []),
      ],
      stop: { maxSeconds: 5 },
    },
    schedulers: ['noop'],
  })

const section = (jobFile: string, name: string): Record<string, string> => {
  const body = jobFile.split(`[${name}]\n`)[1].split('\n\n')[0]
  return Object.fromEntries(
    body
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => l.split('=') as [string, string]),
  )
}

describe('the preview of a real run', () => {
  it('plans a /dev region on the device’s real size, as the run does', async () => {
    const p = await previewRealRun(
      spec(false),
      { target: { kind: 'device', name: 'sdx' }, stateDir: state },
      lookup(dev({})),
    )
    expect(p.refusals).toEqual([])
    const rr = section(p.jobFile, 'rr')
    expect(rr.filename).toBe('/dev/sdx')
    expect(rr.size).toBe('8g') // fio's own suffix: 8 GiB
    expect(p.target?.sizeBytes).toBe(8 * GiB)
  })

  it('refuses writes to the system disk, showing the job it would have run', async () => {
    const p = await previewRealRun(
      spec(true),
      { target: { kind: 'device', name: 'sdx', confirm: 'sdx' }, stateDir: state },
      lookup(system),
    )
    expect(p.refusals).toEqual([
      expect.stringMatching(/^refusing \/dev\/sdx: it is in use \(mounted: \/dev\/sdx on \/\)/),
    ])
    expect(p.readOnly).toBe(false)
    expect(section(p.jobFile, 'w').filename).toBe('/dev/sdx')
  })

  it('refuses writes to a free device whose name was not typed, and reads of the system disk unconfirmed', async () => {
    const unconfirmed = await previewRealRun(
      spec(true),
      { target: { kind: 'device', name: 'sdx' }, stateDir: state },
      lookup(dev({})),
    )
    expect(unconfirmed.refusals.join()).toContain('confirm by typing its name: --device sdx --confirm sdx')
    const confirmed = await previewRealRun(
      spec(true),
      { target: { kind: 'device', name: 'sdx', confirm: 'sdx' }, stateDir: state },
      lookup(dev({})),
    )
    expect(confirmed.refusals).toEqual([])
    const reading = await previewRealRun(
      spec(false),
      { target: { kind: 'device', name: 'sdx' }, stateDir: state },
      lookup(system),
    )
    expect(reading.refusals.join()).toMatch(/it is the system disk/)
  })

  it('refuses a device that does not exist, with no job to show', async () => {
    const p = await previewRealRun(
      spec(false),
      { target: { kind: 'device', name: 'sdq' }, stateDir: state },
      lookup(dev({})),
    )
    expect(p.refusals).toEqual(['there is no block device named "sdq" (see iosched-lab devices)'])
    expect(p.jobFile).toBe('')
    expect(p.target).toBeNull()
  })

  it('refuses a device too small for the spec’s files, and a scratch device without room', async () => {
    const files = resolveSpec({
      device: { preset: 'ssd-sata-mlc' },
      workload: {
        files: [{ name: 'f', size: '2G' }],
        processes: [{ name: 'c', type: 'cat', params: { file: 'f', size: '2G' } }],
      },
      schedulers: ['noop'],
    })
    const small = await previewRealRun(
      files,
      { target: { kind: 'device', name: 'sdx' }, stateDir: state },
      lookup(dev({ sizeBytes: GiB })),
    )
    expect(small.refusals.join()).toMatch(/refusing \/dev\/sdx: it holds 1 GiB and the spec's files need/)
    const cramped = await previewRealRun(
      files,
      { target: { kind: 'scratch', parentDir: state }, stateDir: state },
      lookup(undefined, GiB),
    )
    expect(cramped.refusals.join()).toContain('too little for a')
    expect(section(cramped.jobFile, 'c').filename).toBe('/dev/loopN')
  })

  it('refuses extra fio options that would move the I/O', async () => {
    const p = await previewRealRun(
      spec(false),
      { target: { kind: 'scratch' }, fioArgs: ['--filename=/dev/sdx'], stateDir: state },
      lookup(undefined),
    )
    expect(p.refusals.join()).toContain('the lab chooses the device')
  })
})

describe('the preview of a run on fio servers', () => {
  it('shows the job against the remote target and does not run it (--dry-run)', () => {
    const file = join(state, 'servers.json')
    writeFileSync(
      file,
      JSON.stringify({
        device: { preset: 'ssd-sata-mlc' },
        workload: {
          processes: [{ name: 'rr', type: 'random-read', params: { file: '/dev', bs: '4k', count: 10 } }],
        },
        schedulers: ['noop'],
      }),
    )
    const r = spawnSync(
      process.execPath,
      [cliPath, 'run', file, '--real', '--dry-run', '--fio-server', 'nohost.invalid'],
      { cwd: root, encoding: 'utf8' },
    )
    expect(r.stderr).toContain('--remote-target /dev/sdb --remote-size 100G')
    const ok = spawnSync(
      process.execPath,
      [
        ...[cliPath, 'run', file, '--real', '--dry-run', '--fio-server', 'nohost.invalid'],
        ...['--remote-target', '/dev/sdq', '--remote-size', '512M'],
      ],
      { cwd: root, encoding: 'utf8' },
    )
    expect(ok.stderr).toBe('')
    expect(ok.status).toBe(0)
    expect(ok.stdout).toContain('filename=/dev/sdq')
    expect(ok.stdout).toMatch(/^size=512m$/m)
    expect(ok.stdout).toMatch(/^readonly=1$/m)
    expect(ok.stdout).toContain('--client=nohost.invalid WORKDIR/job.fio')
  })
})
