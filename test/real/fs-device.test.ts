import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { deviceUnderDir, majMinOf } from '../../src/main/services/real/fs-device'
import { judgeDir, testFileSize } from '../../src/main/services/real/dir-target'
import { bytesNeeded, layoutFiles } from '../../src/main/services/real/file-layout'

// A fake /sys/dev/block, /sys/block and mountinfo around a real temp directory (whose st_dev is
// whatever this machine's is): how the lab finds the device whose scheduler a directory's test
// file meets, and what it refuses — without touching a device.
describe('the device under a directory (fake sysfs)', () => {
  let root = ''
  let dir = ''
  let id = ''
  const devBlock = () => join(root, 'dev-block')
  const sysBlock = () => join(root, 'block')
  const mountinfo = () => join(root, 'mountinfo')
  const put = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text + '\n')
  }
  /** The file system of `dir`: its st_dev as `node` (a path under devices/), mounted with `type`. */
  const fsOn = (node: string, type = 'ext4', source = '/dev/xyz') => {
    mkdirSync(join(root, 'devices', node), { recursive: true })
    mkdirSync(devBlock(), { recursive: true })
    symlinkSync(join(root, 'devices', node), join(devBlock(), id))
    put('mountinfo', `27 1 ${id} / ${dir} rw,relatime - ${type} ${source} rw,errors=remount-ro`)
  }
  const disk = (name: string, scheduler: string, slaves: string[] = []) => {
    put(`block/${name}/queue/scheduler`, scheduler)
    put(`block/${name}/queue/rotational`, '0')
    mkdirSync(join(sysBlock(), name, 'slaves'), { recursive: true })
    for (const s of slaves) {
      mkdirSync(join(root, 'devices', 'x', s), { recursive: true })
      symlinkSync(join(root, 'devices', 'x', s), join(sysBlock(), name, 'slaves', s))
    }
  }
  const roots = () => ({ devBlock: devBlock(), sysBlock: sysBlock(), mountinfo: mountinfo() })

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'fsdev-'))
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'fsdev-dir-')))
    id = majMinOf(statSync(dir).dev)
  })
  afterEach(() => {
    rmSync(root, { recursive: true, force: true })
    rmSync(dir, { recursive: true, force: true })
  })

  it('takes a partition’s disk, and names the file system', () => {
    fsOn('pci/sda/sda2')
    put('devices/pci/sda/sda2/partition', '2')
    disk('sda', 'none [mq-deadline] kyber bfq')
    const a = deviceUnderDir(dir, roots())
    expect(a.ok).toBe(true)
    if (!a.ok) return
    expect(a.device.blockDevice).toBe('sda2')
    expect(a.device.schedulerDevice).toBe('sda')
    expect(a.device.fileSystem).toMatchObject({ type: 'ext4', source: '/dev/xyz', mountPoint: dir })
    expect(a.device.notes).toEqual(['sda2 is a partition of sda: the scheduler is sda’s'])
  })

  it('follows a device-mapper device on one partition to its disk, and says so', () => {
    fsOn('virtual/dm-0')
    disk('dm-0', 'none', ['nvme0n1p3'])
    put('block/dm-0/dm/name', 'vg-root')
    put('devices/x/nvme0n1p3/partition', '3')
    mkdirSync(join(root, 'devices/nvme0n1'), { recursive: true })
    // the slave's real directory is under its disk's
    rmSync(join(sysBlock(), 'dm-0', 'slaves', 'nvme0n1p3'))
    mkdirSync(join(root, 'devices/nvme0n1/nvme0n1p3'), { recursive: true })
    put('devices/nvme0n1/nvme0n1p3/partition', '3')
    symlinkSync(join(root, 'devices/nvme0n1/nvme0n1p3'), join(sysBlock(), 'dm-0', 'slaves', 'nvme0n1p3'))
    disk('nvme0n1', '[none] mq-deadline kyber')
    const a = deviceUnderDir(dir, roots())
    expect(a).toMatchObject({ ok: true, device: { blockDevice: 'dm-0', schedulerDevice: 'nvme0n1' } })
    if (!a.ok) return
    expect(a.device.notes.join('\n')).toContain(
      'dm-0 is a device-mapper device (vg-root) with no scheduler of its own on one device, nvme0n1p3',
    )
    expect(a.device.notes.join('\n')).toContain('nvme0n1p3 is a partition of nvme0n1')
  })

  it('refuses a stack over several devices, naming them', () => {
    fsOn('virtual/md0')
    disk('md0', '', ['sda1', 'sdb1'])
    const a = deviceUnderDir(dir, roots())
    expect(a.ok).toBe(false)
    if (a.ok) return
    expect(a.reason).toContain('md0 is a software RAID (md) device over 2 devices (sda1, sdb1)')
    expect(a.reason).toContain('Pick a file system on one device')
  })

  it('says which scheduler a loop device’s file system meets', () => {
    fsOn('virtual/loop7')
    disk('loop7', '[none] mq-deadline kyber bfq')
    put('block/loop7/loop/backing_file', '/var/tmp/disk.img')
    const a = deviceUnderDir(dir, roots())
    expect(a).toMatchObject({ ok: true, device: { schedulerDevice: 'loop7' } })
    if (!a.ok) return
    expect(a.device.notes).toEqual([
      'loop7 is a loop device on /var/tmp/disk.img: loop7’s scheduler is switched; the disk under that file keeps its own',
    ])
  })

  it('refuses tmpfs, network file systems and a device number without a block device, saying why', () => {
    put('mountinfo', `27 1 ${id} / ${dir} rw - tmpfs tmpfs rw`)
    expect(deviceUnderDir(dir, roots())).toEqual({
      ok: false,
      reason: `${dir} is on tmpfs mounted at ${dir} (from tmpfs): it keeps its files in memory: no disk and no I/O scheduler is under it`,
    })
    put('mountinfo', `27 1 ${id} / ${dir} rw - nfs4 server:/export rw`)
    const nfs = deviceUnderDir(dir, roots())
    expect(nfs.ok || nfs.reason).toContain('goes over the network')
    put('mountinfo', `27 1 ${id} / ${dir} rw - btrfs none rw`)
    const anon = deviceUnderDir(dir, roots())
    expect(anon.ok || anon.reason).toContain(`whose device number ${id} is not a block device`)
  })

  it('refuses a device with no scheduler and nothing under it', () => {
    fsOn('virtual/zram0')
    disk('zram0', 'none')
    const a = deviceUnderDir(dir, roots())
    expect(a.ok || a.reason).toContain('zram0 has no I/O scheduler to switch')
  })

  it('judges the directory: absolute, existing, a directory, room for the test file', () => {
    fsOn('pci/sda')
    disk('sda', 'none [mq-deadline]')
    const o = { neededBytes: 100 << 20, stateDir: join(root, 'state'), freeBytes: () => 1 << 30 }
    expect(judgeDir('rel/dir', o, roots()).refusal).toContain('must be an absolute path')
    expect(judgeDir(join(dir, 'missing'), o, roots()).refusal).toBe(
      `${join(dir, 'missing')} does not exist: create it first, or pick another directory`,
    )
    writeFileSync(join(dir, 'f'), '')
    expect(judgeDir(join(dir, 'f'), o, roots()).refusal).toBe(`${join(dir, 'f')} is not a directory`)
    const ok = judgeDir(dir, o, roots())
    expect(ok.refusal).toBeNull()
    expect(ok.facts).toMatchObject({ sizeBytes: 100 << 20, fs: { schedulerDevice: 'sda' } })
    expect(ok.facts!.path).toBe(join(dir, 'iosched-lab-run-XXXXXX', 'iosched-lab.test'))
    expect(ok.facts!.description).toContain('the scheduler of /dev/sda is switched')
    const full = judgeDir(dir, { ...o, freeBytes: () => 120 << 20 }, roots())
    expect(full.refusal).toBe(
      `${dir} has 120 MiB free, too little for the 100 MiB test file (and 64 MiB to spare): free some space, pick another directory, or make the tests’ file smaller`,
    )
  })

  it('lays the spec’s files out from the test file’s first byte', () => {
    const files = [
      { name: 'a', size: 3 << 20 },
      { name: 'b', size: (1 << 20) + 5 },
    ] as Parameters<typeof bytesNeeded>[0]
    expect(bytesNeeded(files, true)).toBe((4 << 20) + 512)
    expect(bytesNeeded(files)).toBe((64 << 20) + (4 << 20) + 512)
    const lay = layoutFiles(files, testFileSize(bytesNeeded(files, true)), true)
    expect([...lay.places.values()].map((p) => p.offset)).toEqual([0, 3 << 20])
    expect(testFileSize(5)).toBe(16 << 20)
  })
})
