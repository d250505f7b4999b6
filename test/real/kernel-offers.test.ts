import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  kernelOfferedSchedulers,
  moduleSchedulers,
  offeredOf,
} from '../../src/main/services/real/kernel-offers'

// A fake /sys/block (IOSCHED_LAB_SYSFS_BLOCK) and /lib/modules: kernels with and without BFQ.
describe("the kernel's schedulers: what it offers, built in or as modules", () => {
  let dir = ''
  const sched = (dev: string, line: string) => {
    mkdirSync(join(dir, 'block', dev, 'queue'), { recursive: true })
    writeFileSync(join(dir, 'block', dev, 'queue/scheduler'), line + '\n')
  }
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'offers-'))
    mkdirSync(join(dir, 'block'))
    mkdirSync(join(dir, 'modules'))
    process.env.IOSCHED_LAB_SYSFS_BLOCK = join(dir, 'block')
  })
  afterEach(() => {
    delete process.env.IOSCHED_LAB_SYSFS_BLOCK
    rmSync(dir, { recursive: true, force: true })
  })

  it('reads a loop device first, and a named device when given', () => {
    sched('vda', 'none [mq-deadline] kyber bfq')
    sched('loop3', '[none] mq-deadline kyber')
    expect(kernelOfferedSchedulers()).toEqual(['none', 'mq-deadline', 'kyber'])
    expect(kernelOfferedSchedulers('vda')).toEqual(['none', 'mq-deadline', 'kyber', 'bfq'])
    expect(kernelOfferedSchedulers('sdz')).toBeNull()
  })

  it('splits the wanted schedulers into offered and missing, saying why', () => {
    sched('loop0', '[none] mq-deadline kyber')
    const o = offeredOf(['none', 'mq-deadline', 'kyber', 'bfq'], undefined, join(dir, 'modules'))
    expect(o.offered).toEqual(['none', 'mq-deadline', 'kyber'])
    expect(o.missing).toHaveLength(1)
    expect(o.missing[0].scheduler).toBe('bfq')
    expect(o.missing[0].reason).toMatch(/does not offer "bfq" \(it offers none, mq-deadline, kyber;/)
  })

  it('counts a scheduler the kernel has as a module not loaded yet (selecting it loads it)', () => {
    sched('loop0', '[none] mq-deadline kyber')
    writeFileSync(join(dir, 'modules/modules.alias'), 'alias bfq-iosched bfq\nalias fs-ext4 ext4\n')
    expect(moduleSchedulers(join(dir, 'modules'))).toEqual(['bfq'])
    const o = offeredOf(['none', 'bfq'], undefined, join(dir, 'modules'))
    expect(o).toEqual({ offered: ['none', 'bfq'], missing: [] })
    // without the alias index, a module file named for it says the same
    rmSync(join(dir, 'modules/modules.alias'))
    writeFileSync(join(dir, 'modules/modules.dep'), 'kernel/block/bfq.ko.zst:\nkernel/fs/ext4/ext4.ko:\n')
    expect(moduleSchedulers(join(dir, 'modules'))).toEqual(['bfq'])
  })

  it('takes every scheduler as offered when no device can be asked', () => {
    expect(offeredOf(['none', 'bfq'], undefined, join(dir, 'modules'))).toEqual({
      offered: ['none', 'bfq'],
      missing: [],
    })
  })
})
