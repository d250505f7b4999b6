import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { backingValues, diskOfFile, readBackingFacts } from '../../src/main/services/real/backing-facts'
import { resolveSpec } from '../../src/shared/experiment/validate'

// A fake /sys/block (IOSCHED_LAB_SYSFS_BLOCK) and /sys/dev/block: the disk under a loop device's
// backing file, as the fingerprint reads it into the preset.
describe('the disk under a loop device', () => {
  let dir = ''
  const put = (path: string, text: string) => {
    mkdirSync(join(dir, 'block', path, '..'), { recursive: true })
    writeFileSync(join(dir, 'block', path), text + '\n')
  }
  const virtio = (features: string) => {
    put('vda/queue/scheduler', 'none [mq-deadline] kyber')
    for (const [k, v] of Object.entries({
      fifo_batch: 16,
      writes_starved: 2,
      front_merges: 1,
      async_depth: 256,
    }))
      put(`vda/queue/iosched/${k}`, String(v))
    put('vda/queue/rotational', '1')
    put('vda/queue/nr_requests', '256')
    put('vda/queue/max_sectors_kb', '4096')
    put('vda/queue/max_segments', '254')
    put('vda/mq/0/nr_tags', '128')
    put('vda/device/features', features)
  }
  const NO_INDIRECT = '0010001001100100000000000000010010000000'
  const INDIRECT = '0010001001100100000000000000110010000000'
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'backing-'))
    process.env.IOSCHED_LAB_SYSFS_BLOCK = join(dir, 'block')
  })
  afterEach(() => {
    delete process.env.IOSCHED_LAB_SYSFS_BLOCK
    rmSync(dir, { recursive: true, force: true })
  })

  it('finds the whole disk of a file on a partition through its st_dev', () => {
    const file = join(dir, 'scratch.img')
    writeFileSync(file, 'x')
    const dev = statSync(file).dev
    const id = `${(dev >> 8) & 0xfff}:${(dev & 0xff) | ((dev >> 12) & 0xfff00)}`
    const devRoot = join(dir, 'dev')
    mkdirSync(join(dir, 'devices', 'vdb', 'vdb1'), { recursive: true })
    writeFileSync(join(dir, 'devices', 'vdb', 'vdb1', 'partition'), '1\n')
    mkdirSync(devRoot)
    symlinkSync(join(dir, 'devices', 'vdb', 'vdb1'), join(devRoot, id))
    expect(diskOfFile(file, devRoot)).toBe('vdb')
    rmSync(join(dir, 'devices', 'vdb', 'vdb1', 'partition'))
    expect(diskOfFile(file, devRoot)).toBe('vdb1')
    expect(diskOfFile(join(dir, 'missing'), devRoot)).toBeNull()
  })

  it('reads a virtio disk without indirect descriptors: its ring is max_segments + 2', () => {
    virtio(NO_INDIRECT)
    const f = readBackingFacts('vda')
    expect(f).toMatchObject({ scheduler: 'mq-deadline', rotational: true, nrRequests: 256, queueDepth: 128 })
    expect(f.indirectDescriptors).toBe(false)
    const { values, sources } = backingValues(f, '6.18.44-fc-v1272')
    expect(values).toMatchObject({
      backingScheduler: 'mq-deadline',
      backingDevice: 'vda',
      backingNrRequests: 256,
      backingQueueDepth: 128,
      backingMaxTransferKiB: 4096,
      ringSlots: 256,
    })
    // the kernel's version picks mq-deadline's rules
    expect(values.backingTunables).toContain('batch_rule=6.8')
    expect(values.backingTunables).toContain('async_depth_rule=6.17')
    expect(values.backingTunables).toContain('fifo_batch=16')
    expect(sources.ringSlots).toMatch(/INDIRECT_DESC/)
    // an older kernel: the 5.16 rule (the tunable left at its default)
    expect(backingValues(f, '6.1.0-13-amd64').values.backingTunables).not.toContain('batch_rule')
    // the values are ones the model takes
    expect(() =>
      resolveSpec({
        device: { preset: 'loop-dio-virtio', overrides: values },
        workload: {
          processes: [{ name: 'r', type: 'fio', params: { rw: 'randread', filename: '/dev', size: '16M' } }],
        },
        schedulers: ['none'],
      }),
    ).not.toThrow()
  })

  it('sets no ring where the disk has indirect descriptors, and no backing queue for a scheduler the lab does not model', () => {
    virtio(INDIRECT)
    expect(readBackingFacts('vda').indirectDescriptors).toBe(true)
    expect(backingValues(readBackingFacts('vda'), '6.18.0').values.ringSlots).toBeUndefined()
    put('vda/queue/scheduler', '[adios] none')
    expect(backingValues(readBackingFacts('vda'), '6.18.0').values).toEqual({})
  })
})
