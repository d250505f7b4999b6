import { describe, expect, it } from 'vitest'
import { SECOND } from '../../src/shared/sim/time'
import { FileAllocator } from '../../src/shared/host/files'
import { fsRig, fsync, read, sleep, write } from './rig'
import type { Step } from './rig'

const MiB = 1 << 20

describe('access times', () => {
  // a reader that reads a little every 1.5 s, 6 times: the clock moves a second between reads
  const reads = (): Step[] => {
    const s: Step[] = []
    for (let i = 0; i < 6; i++) s.push(read('f', i * 4096, 4096), sleep(1500))
    return s
  }
  const atimeChanges = (atime: string) => {
    const r = fsRig('ext3', { atime, commitSeconds: 1 })
    r.kernel.addFile({ name: 'f', size: 1 * MiB })
    r.spawn('reader', reads())
    r.run(12_000)
    return r.fs!.stats.commits
  }
  it('strictatime dirties the inode on every read that moves the clock: each commit interval logs it', () => {
    expect(atimeChanges('strictatime')).toBeGreaterThanOrEqual(5)
  })
  it('relatime only once (the file was not changed since; its atime is not a day old after that)', () => {
    expect(atimeChanges('relatime')).toBe(1)
  })
  it('noatime never', () => {
    expect(atimeChanges('noatime')).toBe(0)
  })
  it('relatime again after a write: atime not later than mtime', () => {
    const r = fsRig('ext3', { atime: 'relatime', commitSeconds: 1 })
    r.kernel.addFile({ name: 'f', size: 1 * MiB })
    r.spawn('p', [
      read('f', 0, 4096),
      sleep(2000),
      read('f', 0, 4096),
      write('f', 0, 4096),
      sleep(1500),
      read('f', 0, 4096),
    ])
    r.run(8000)
    const ino = r.fs!.inode(r.file('f'))!
    expect(ino.atime).toBeGreaterThan(ino.mtime)
    expect(ino.atime).toBeGreaterThan(3 * SECOND)
  })
})

describe('ext2: no journal', () => {
  it('fsync writes the data, then the inode block from the process itself', () => {
    const r = fsRig('ext2')
    r.kernel.addFile({ name: 'f', size: 1 * MiB })
    r.spawn('p', [(sys, f) => sys.truncate(f('f')), write('f', 0, 8192), fsync('f')])
    r.run(1000)
    const mine = r.ios.filter((io) => io.who === 'p')
    expect(mine).toHaveLength(2)
    expect(r.inFile(r.file('f'), mine[0])).toBe(true)
    expect(r.inFile(r.fs!.meta!, mine[1])).toBe(true) // the inode table block
    expect(r.ios.filter((io) => io.who !== 'p')).toHaveLength(0) // no journal thread
  })
  it('other metadata (the bitmaps) stays dirty for writeback, like data', () => {
    const r = fsRig('ext2', {}, { dirtyExpireMs: 1000, dirtyWritebackMs: 500 })
    r.kernel.addFile({ name: 'f', size: 1 * MiB })
    r.spawn('p', [(sys, f) => sys.truncate(f('f')), write('f', 0, 8192)])
    r.run(3000)
    const flushed = r.ios.filter((io) => io.who === 'flush' && r.inFile(r.fs!.meta!, io))
    expect(flushed.length).toBeGreaterThan(0)
  })
})

describe('FFS (FreeBSD 2.2): synchronous namespace metadata', () => {
  it('each create writes the inode and the directory block from the process and waits for them', () => {
    const r = fsRig('ffs')
    const n = 5
    const steps: Step[] = []
    for (let i = 0; i < n; i++) steps.push((sys) => sys.metaOp('create', i))
    const p = r.spawn('bonnie', steps)
    r.run(1000)
    const mine = r.ios.filter((io) => io.who === 'bonnie')
    expect(mine.length).toBe(2 * n)
    expect(mine.every((io) => io.sync && r.inFile(r.fs!.meta!, io))).toBe(true)
    for (let i = 1; i < n; i++) expect(p.script.at[i]).toBeGreaterThanOrEqual(mine[2 * i + 1].done)
  })
  it('mounted async (syncMetadata off), creates cost no I/O of their own', () => {
    const r = fsRig('ffs', { syncMetadata: false })
    r.spawn('bonnie', [(sys) => sys.metaOp('create', 0), (sys) => sys.metaOp('create', 1)])
    r.run(1000)
    expect(r.ios.filter((io) => io.who === 'bonnie')).toHaveLength(0)
  })
  it('stat reads the inode block once; later stats of inodes in it are cached', () => {
    const r = fsRig('ffs')
    r.spawn('p', [(sys) => sys.metaOp('stat', 0), (sys) => sys.metaOp('stat', 1)])
    r.run(1000)
    const mine = r.ios.filter((io) => io.who === 'p')
    expect(mine).toHaveLength(1)
    expect(mine[0].op).toBe(0)
  })
})

describe('block groups: placement', () => {
  it('ext3: a file laid across groups skips each group’s bitmaps and inode table', () => {
    const r = fsRig('ext3')
    r.kernel.addFile({ name: 'big', size: 400 * MiB })
    r.run(1)
    const l = r.fs!.layout
    const big = r.file('big')
    expect(big.extents.length).toBeGreaterThan(2)
    const meta = l.regionBlocks * 8
    for (const e of big.extents) {
      for (let g = 0; g < l.flexGroups; g++) {
        const s = l.regionStart(g)
        expect(e.devSector >= s + meta || e.devSector + e.nsect <= s).toBe(true)
      }
    }
    // contiguous in the file, in order on the device
    let fsec = 0
    for (const e of big.extents) {
      expect(e.fileSector).toBe(fsec)
      fsec += e.nsect
    }
    expect(fsec).toBe((400 * MiB) / 512)
  })
  it('each file’s inode lies in the group of its first block', () => {
    const r = fsRig('ext3')
    r.kernel.addFile({ name: 'a', size: 200 * MiB })
    r.kernel.addFile({ name: 'b', size: 1 * MiB })
    r.run(1)
    const l = r.fs!.layout
    const b = r.file('b')
    expect(r.fs!.inode(b)!.group).toBe(l.groupOf(b.extents[0].devSector))
    expect(r.fs!.inode(b)!.group).toBeGreaterThan(0)
  })
  it('the journal is kept free of files: ext3 at the start, ext4 in the middle', () => {
    for (const [type, where] of [
      ['ext3', 'start'],
      ['ext4', 'middle'],
    ] as const) {
      const r = fsRig(type)
      r.kernel.addFile({ name: 'a', size: 64 * MiB })
      r.spawn('p', [write('a', 0, 4096), fsync('a')])
      r.run(1000)
      const j = r.ios.find((io) => io.who !== 'p')!
      const cap = r.queue.deviceInfo.capacitySectors
      if (where === 'start') expect(j.sector).toBeLessThan(cap / 8)
      else expect(Math.abs(j.sector - cap / 2)).toBeLessThan(cap / 8)
      expect(r.inFile(r.file('a'), j)).toBe(false)
    }
  })
  it('without a file system, files are laid out exactly as before', () => {
    const a = new FileAllocator(1 << 24)
    const f = a.allocate({ name: 'x', size: 300 * MiB })
    expect(f.extents).toEqual([{ fileSector: 0, devSector: 2048 * 64, nsect: (300 * MiB) / 512 }])
    const r = fsRig('none')
    r.kernel.addFile({ name: 'x', size: 300 * MiB })
    expect(r.file('x').extents).toHaveLength(1)
  })
})
