import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { captureSystemInfo, deviceFacts, fileSystemOf } from '../../src/main/services/real/system-info'
import { systemRows, systemRowsOf } from '../../src/shared/experiment/real-system'
import type { RunResult } from '../../src/shared/experiment/result'

// A fake /sys/block (IOSCHED_LAB_SYSFS_BLOCK) and a fake /proc/self/mountinfo: what a real run
// records of the machine and its device, and how it reads as rows — "unknown" for what is missing.
describe('the system of a real run', () => {
  let dir = ''
  const put = (path: string, text: string) => {
    mkdirSync(join(dir, 'block', path, '..'), { recursive: true })
    writeFileSync(join(dir, 'block', path), text + '\n')
  }
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sysinfo-'))
    process.env.IOSCHED_LAB_SYSFS_BLOCK = join(dir, 'block')
  })
  afterEach(() => {
    delete process.env.IOSCHED_LAB_SYSFS_BLOCK
    rmSync(dir, { recursive: true, force: true })
  })

  it("reads a disk's model, firmware, size, rotational flag and queue attributes", () => {
    put('sdb/device/model', 'WDC WD800JB-00JJ')
    put('sdb/device/vendor', 'ATA     ')
    put('sdb/device/rev', '05.0')
    put('sdb/size', '156301488')
    put('sdb/queue/rotational', '1')
    put('sdb/queue/scheduler', 'none [mq-deadline] kyber bfq')
    put('sdb/queue/nr_requests', '64')
    put('sdb/queue/read_ahead_kb', '128')
    put('sdb/queue/max_sectors_kb', '1280')
    put('sdb/queue/write_cache', 'write back')
    put('sdb/mq/0/nr_tags', '32')
    const d = deviceFacts('sdb')
    expect(d).toMatchObject({
      name: 'sdb',
      model: 'WDC WD800JB-00JJ',
      vendor: 'ATA',
      firmware: '05.0',
      sizeBytes: 156301488 * 512,
      rotational: true,
      scheduler: 'mq-deadline',
      queue: {
        nr_requests: '64',
        nr_tags: '32',
        hw_queues: '1',
        read_ahead_kb: '128',
        write_cache: 'write back',
      },
    })
    const rows = Object.fromEntries(
      systemRows({
        kernel: { release: '6.12.9-amd64', version: null, arch: 'x64' },
        cpu: { model: null, count: 2 },
        memory: { totalBytes: 4 * 2 ** 30, availableBytes: null },
        device: d,
        backing: null,
      }),
    )
    expect(rows).toMatchObject({
      kernel: '6.12.9-amd64 (x64)',
      CPU: '2 × unknown',
      memory: '4 GiB',
      'device model': 'WDC WD800JB-00JJ (vendor ATA)',
      'device firmware': '05.0',
      'device size': '74.5 GiB',
      'device rotational': 'yes',
    })
    expect(rows['device queue']).toContain('nr_requests 64, nr_tags 32')
  })

  it('says unknown for what sysfs does not have, and invents nothing', () => {
    put('vdb/queue/scheduler', '[none] mq-deadline')
    const d = deviceFacts('vdb')
    expect(d).toMatchObject({ model: null, vendor: null, firmware: null, sizeBytes: null, rotational: null })
    const rows = Object.fromEntries(
      systemRows({
        kernel: { release: '6.1.0', version: '#1 SMP', arch: 'arm64' },
        cpu: { model: 'Neoverse', count: 4 },
        memory: { totalBytes: null, availableBytes: null },
        device: d,
        backing: { file: null, directIo: null, fileSystem: null, disk: null },
      }),
    )
    expect(rows).toMatchObject({
      memory: 'unknown',
      'device model': 'unknown',
      'device firmware': 'unknown',
      'device size': 'unknown',
      'device rotational': 'unknown',
      'device queue': 'unknown',
      'backing file': 'unknown',
      'file system': 'unknown',
    })
  })

  it("finds a file's file system and mount options: the longest mount point of its device", () => {
    const file = join(dir, 'scratch dir', 'scratch.img')
    mkdirSync(join(dir, 'scratch dir'))
    writeFileSync(file, 'x')
    const dev = statSync(file).dev
    const id = `${(dev >> 8) & 0xfff}:${(dev & 0xff) | ((dev >> 12) & 0xfff00)}`
    const real = realpathSync(dir)
    const esc = (p: string) => p.replace(/ /g, '\\040')
    const mountinfo = join(dir, 'mountinfo')
    writeFileSync(
      mountinfo,
      [
        `26 1 ${id} / / rw,relatime shared:1 - ext4 /dev/vda1 rw,errors=remount-ro`,
        `40 26 ${id} /x ${esc(real)} rw,noatime shared:9 - xfs /dev/vdb rw,attr2,inode64`,
        // another device mounted deeper: not the file's
        `41 40 0:99 / ${esc(join(real, 'scratch dir'))} rw - tmpfs tmpfs rw`,
        '',
      ].join('\n'),
    )
    expect(fileSystemOf(file, mountinfo)).toEqual({
      type: 'xfs',
      source: '/dev/vdb',
      mountPoint: real,
      options: 'rw,noatime',
      superOptions: 'rw,attr2,inode64',
    })
    expect(fileSystemOf(join(dir, 'missing'), mountinfo)).toBeNull()
  })

  it('captures this machine: kernel, CPUs and memory from the running system', () => {
    put('loop7/queue/scheduler', '[none] mq-deadline')
    const s = captureSystemInfo('loop7', join(dir, 'no-mountinfo'))
    expect(s.kernel.release).toMatch(/^\d+\.\d+/)
    expect(s.cpu.count).toBeGreaterThan(0)
    expect(s.memory.totalBytes).toBeGreaterThan(0)
    // a loop device without a backing file in sysfs: the backing facts are unknown, not made up
    expect(s.backing).toEqual({ file: null, directIo: null, fileSystem: null, disk: null })
  })

  it('merges the runs: a fact they share once, one they differ in per run', () => {
    const base = {
      kernel: { release: '6.12', version: null, arch: 'x64' },
      cpu: { model: 'EPYC', count: 2 },
      memory: { totalBytes: 2 ** 30, availableBytes: null },
      backing: null,
    }
    const dev = (nr: string, sched: string) => ({
      name: 'loop3',
      model: null,
      vendor: null,
      firmware: null,
      sizeBytes: 2 ** 28,
      rotational: false,
      scheduler: sched,
      queue: { nr_requests: nr, read_ahead_kb: '128' },
    })
    const run = (label: string, nr: string, sched: string) =>
      ({
        label,
        repetition: 0,
        source: 'real',
        real: { system: { ...base, device: dev(nr, sched) } },
      }) as unknown as RunResult
    const sim = { label: 'noop', repetition: 0, source: 'simulated' } as unknown as RunResult
    const rows = Object.fromEntries(
      systemRowsOf([sim, run('noop', '256', 'none'), run('deadline', '64', 'mq-deadline')]),
    )
    expect(rows.kernel).toBe('6.12 (x64)')
    expect(rows['device size']).toBe('256 MiB')
    expect(rows['device scheduler']).toBe('none (noop #1); mq-deadline (deadline #1)')
    // per attribute: only what differs is given per run
    expect(rows['device queue']).toBe('nr_requests 256 (noop #1); 64 (deadline #1), read_ahead_kb 128')
    expect(systemRowsOf([sim])).toEqual([])
  })
})
