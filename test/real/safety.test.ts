import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BlockDevice } from '../../src/main/services/real/block-devices'
import { describeDevice, listBlockDevices } from '../../src/main/services/real/block-devices'
import { checkDeviceTarget } from '../../src/main/services/real/device-safety'
import {
  cleanupDir,
  cliPath,
  createLoop,
  describeReal,
  readScheduler,
  readWhileWriting,
  root,
  tempDir,
} from './real-env'

const dev = (over: Partial<BlockDevice>): BlockDevice => ({
  name: 'sdb',
  path: '/dev/sdb',
  type: 'disk',
  majMin: '8:16',
  sizeBytes: 500e9,
  model: 'TEST DISK',
  serial: null,
  transport: 'sata',
  rotational: true,
  readOnly: false,
  schedulers: ['none', 'mq-deadline', 'kyber', 'bfq'],
  activeScheduler: 'mq-deadline',
  loopBackingFile: null,
  partitions: [],
  mounts: [],
  inUse: [],
  systemDisk: false,
  ...over,
})
const free = () => true
const write = (d: BlockDevice | undefined, confirm?: string) =>
  checkDeviceTarget(d, d?.name ?? 'nope', { readOnly: false, confirm, exclusiveOpen: free })
const read = (d: BlockDevice | undefined, confirm?: string) =>
  checkDeviceTarget(d, d?.name ?? 'nope', { readOnly: true, confirm, exclusiveOpen: free })
const reason = (c: ReturnType<typeof write>): string => (c.ok ? 'accepted' : c.reason)

describe('which devices a real run may use', () => {
  const system = dev({
    name: 'vda',
    path: '/dev/vda',
    mounts: ['/dev/vda on /'],
    inUse: ['mounted: /dev/vda on /'],
    systemDisk: true,
  })

  it('never writes to the system disk, even when confirmed', () => {
    expect(reason(write(system))).toMatch(/^refusing \/dev\/vda: it is in use \(mounted: \/dev\/vda on \/\)/)
    expect(reason(write(system, 'vda'))).toMatch(/^refusing \/dev\/vda: it is in use/)
  })

  it('lets a read-only run on the system disk only with the typed confirmation', () => {
    expect(reason(read(system))).toMatch(
      /it is the system disk .*confirm by typing its name: --device vda --confirm vda/i,
    )
    expect(read(system, 'vda').ok).toBe(true)
  })

  it('writes to a free whole device only when its name is typed', () => {
    expect(reason(write(dev({})))).toContain(
      'destroys all data on it; confirm by typing its name: --device sdb --confirm sdb',
    )
    expect(reason(write(dev({}), 'sdc'))).toContain('confirm by typing its name')
    expect(write(dev({}), 'sdb')).toEqual({ ok: true, warnings: [] })
    expect(write(dev({}), '/dev/sdb').ok).toBe(true)
  })

  it('refuses devices with partitions, filesystems, RAID/LVM members, holders, or busy', () => {
    const node = {
      name: 'sdb',
      type: 'disk',
      size: 500e9,
      children: [
        { name: 'sdb1', path: '/dev/sdb1', type: 'part', fstype: 'ext4', mountpoints: ['/home'] },
        {
          name: 'sdb2',
          path: '/dev/sdb2',
          type: 'part',
          fstype: 'LVM2_member',
          mountpoints: [null],
          children: [
            {
              name: 'vg-data',
              path: '/dev/mapper/vg-data',
              type: 'lvm',
              fstype: 'xfs',
              mountpoints: ['/srv'],
            },
          ],
        },
        { name: 'sdb3', path: '/dev/sdb3', type: 'part', fstype: 'linux_raid_member', mountpoints: [null] },
        { name: 'sdb4', path: '/dev/sdb4', type: 'part', fstype: 'swap', mountpoints: ['[SWAP]'] },
      ],
    }
    const d = describeDevice(node)
    expect(d.partitions).toEqual(['sdb1', 'sdb2', 'sdb3', 'sdb4'])
    expect(d.systemDisk).toBe(true)
    const text = d.inUse.join('\n')
    for (const s of [
      'mounted: /dev/sdb1 on /home',
      'mounted: /dev/mapper/vg-data on /srv',
      'mounted: /dev/sdb4 is active swap',
      'it has partitions: sdb1, sdb2, sdb3, sdb4',
      '/dev/sdb2 holds an LVM physical volume',
      '/dev/sdb3 holds a RAID (md) member',
      '/dev/mapper/vg-data (lvm) is built on it',
    ])
      expect(text).toContain(s)
    expect(reason(write(dev({ inUse: ['it has partitions: sdb1'] }), 'sdb'))).toMatch(
      /it is in use \(it has partitions: sdb1\)/,
    )
    const busy = checkDeviceTarget(dev({}), 'sdb', {
      readOnly: false,
      confirm: 'sdb',
      exclusiveOpen: () => false,
    })
    expect(reason(busy)).toContain('the kernel reports it busy')
    expect(reason(write(dev({ readOnly: true }), 'sdb'))).toContain('it is read-only')
  })

  it('lets read-only runs use a device in use (with a warning), and explains unusable names', () => {
    const c = read(dev({ inUse: ['mounted: /dev/sdb1 on /home'], mounts: ['/dev/sdb1 on /home'] }))
    expect(c.ok).toBe(true)
    expect(c.ok && c.warnings[0]).toContain('the run only reads (fio --readonly)')
    expect(reason(write(undefined))).toBe('there is no block device named "nope" (see iosched-lab devices)')
    expect(reason(write(dev({ schedulers: [], activeScheduler: null }), 'sdb'))).toContain('no I/O scheduler')
    expect(reason(write(dev({ sizeBytes: 0 }), 'sdb'))).toContain('size is 0')
  })
})

describeReal('refusing real devices (root)', () => {
  let dir = ''
  let mounted = { device: '', name: '', file: '' }
  const state = () => join(dir, 'state')
  const cli = (...args: string[]) => {
    const r = spawnSync(process.execPath, [cliPath, ...args], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, IOSCHED_LAB_STATE_DIR: state(), IOSCHED_LAB_SCRATCH_DIR: dir },
    })
    return { code: r.status, out: r.stdout, err: r.stderr }
  }

  beforeAll(() => {
    dir = tempDir('iosched-safety-')
    mounted = createLoop(dir, 64)
    execFileSync('mkfs.ext4', ['-q', '-F', mounted.device])
    mkdirSync(join(dir, 'mnt'))
    execFileSync('mount', [mounted.device, join(dir, 'mnt')])
    writeFileSync(join(dir, 'spec.json'), JSON.stringify(readWhileWriting(1, ['noop'])))
  })
  afterAll(() => {
    spawnSync('umount', [join(dir, 'mnt')])
    cleanupDir(dir)
  })

  it('sees the system disk and the mounted loop device as in use', async () => {
    const all = await listBlockDevices()
    const rootDev = all.find((d) => d.systemDisk)
    expect(rootDev, 'the disk holding / is found').toBeDefined()
    const m = all.find((d) => d.name === mounted.name)!
    expect(m.loopBackingFile).toBe(mounted.file)
    expect(m.inUse.join('\n')).toContain(`mounted: ${mounted.device} on ${join(dir, 'mnt')}`)
    expect(m.schedulers).toEqual(expect.arrayContaining(['none', 'mq-deadline']))
    const r = cli('devices', '--json')
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.out) as { devices: BlockDevice[] }
    expect(doc.devices.find((d) => d.name === mounted.name)!.inUse.length).toBeGreaterThan(0)
  })

  it('refuses a mounted device even when confirmed, and leaves it alone', () => {
    const before = readScheduler(mounted.name)
    const r = cli(
      'run',
      join(dir, 'spec.json'),
      '--real',
      '--device',
      mounted.name,
      '--confirm',
      mounted.name,
    )
    expect(r.code).toBe(2)
    expect(r.err).toContain(
      `refusing ${mounted.device}: it is in use (mounted: ${mounted.device} on ${join(dir, 'mnt')}`,
    )
    expect(readScheduler(mounted.name)).toBe(before)
  })

  it('refuses the system disk (vda here) without touching it', async () => {
    const sys = (await listBlockDevices()).find(
      (d) => d.systemDisk && d.mounts.some((m) => m.endsWith(' on /')),
    )
    if (!sys) return console.warn('no block device holds / here (a container?): nothing to refuse')
    const before = readScheduler(sys.name)
    const w = cli('run', join(dir, 'spec.json'), '--real', '--device', sys.name)
    expect(w.code).toBe(2)
    expect(w.err).toContain(`refusing ${sys.path}: it is in use (mounted: `)
    // a read-only workload is refused too, until the name is typed (which this test never does)
    const ro = {
      ...readWhileWriting(1, ['noop']),
      workload: {
        processes: [{ name: 'r', type: 'random-read', params: { file: '/dev', size: '16M', count: 10 } }],
      },
    }
    writeFileSync(join(dir, 'ro.json'), JSON.stringify(ro))
    const r = cli('run', join(dir, 'ro.json'), '--real', '--device', sys.name)
    expect(r.code).toBe(2)
    expect(r.err).toContain(`refusing ${sys.path}: it is the system disk`)
    expect(r.err).toContain(`--device ${sys.name} --confirm ${sys.name}`)
    expect(readScheduler(sys.name)).toBe(before)
  })
})
