import { describe, expect, it } from 'vitest'
import { devicesTable } from '../../src/cli/commands/devices'
import type { RealDevice } from '../../src/shared/api/real-contract'
import { bytes as appBytes } from '../../src/renderer/src/lib/format'

const device = (over: Partial<RealDevice>): RealDevice => ({
  name: 'sda',
  path: '/dev/sda',
  type: 'disk',
  majMin: '8:0',
  sizeBytes: 0,
  model: null,
  serial: null,
  transport: null,
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

describe('iosched-lab devices (text)', () => {
  const devices = [
    device({
      name: 'vda',
      sizeBytes: 274877906944,
      systemDisk: true,
      inUse: ['mounted: /dev/vda on /'],
    }),
    device({
      name: 'loop0',
      type: 'loop',
      sizeBytes: 268435456,
      loopBackingFile: '/tmp/x/scratch.img',
      activeScheduler: 'none',
    }),
    device({ name: 'nvme0n1', sizeBytes: 1000204886016, rotational: false, model: 'Samsung SSD 980 1TB' }),
    device({ name: 'zram0', sizeBytes: 0, schedulers: [], activeScheduler: null }),
  ]
  const rows = devicesTable(devices).split('\n').slice(2)
  const sizeOf = (name: string): string =>
    rows
      .find((r) => r.startsWith(name + ' '))!
      .trim()
      .split(/\s{2,}/)[1]

  it('gives sizes in binary units, as the app does (GiB, MiB; not decimal GB or MB)', () => {
    expect(sizeOf('vda')).toBe('256 GiB')
    expect(sizeOf('loop0')).toBe('256 MiB')
    expect(sizeOf('nvme0n1')).toBe('932 GiB')
    expect(sizeOf('zram0')).toBe('0')
    for (const d of devices.filter((x) => x.sizeBytes > 0)) expect(sizeOf(d.name)).toBe(appBytes(d.sizeBytes))
  })

  it('keeps the other columns: schedulers with the active one in brackets, and the status', () => {
    expect(rows.find((r) => r.startsWith('vda '))).toMatch(/none \[mq-deadline\] bfq\s+system disk: mounted/)
    expect(rows.find((r) => r.startsWith('loop0 '))).toMatch(/loop: \/tmp\/x\/scratch\.img/)
  })
})
