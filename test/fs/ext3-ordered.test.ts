import { describe, expect, it } from 'vitest'
import { MS, SECOND } from '../../src/shared/sim/time'
import { WRITE } from '../../src/shared/block/types'
import { fsRig, fsync, sleep, write } from './rig'
import type { Io } from './rig'

const MiB = 1 << 20

/** The journal's own writes: from kjournald, outside every file. */
const journalIos = (r: ReturnType<typeof fsRig>, ctxName: string): Io[] =>
  r.ios.filter((io) => io.who === ctxName)

describe('ext3 data=ordered (jbd): the commit writes the transaction’s data before its commit record', () => {
  it('on the 5 s timer: kjournald writes the dirty data, waits for it, logs the metadata, then the commit record', () => {
    const r = fsRig('ext3')
    r.kernel.addFile({ name: 'a', size: 4 * MiB })
    r.spawn('writer', [write('a', 0, 1 * MiB)])
    r.run(7000)
    const a = r.file('a')
    const starts = r.log.filter((e) => e.what === 'start')
    expect(starts).toHaveLength(1)
    expect(starts[0].detail).toBe('timer')
    // the transaction started with the first write (t ≈ 0) and expires commit= 5 s later
    expect(starts[0].at).toBeGreaterThanOrEqual(5 * SECOND)
    expect(starts[0].at).toBeLessThan(5 * SECOND + 10 * MS)
    const kj = journalIos(r, 'kjournald')
    const data = kj.filter((io) => r.inFile(a, io))
    const log = kj.filter((io) => !r.inFile(a, io))
    // all 256 dirty pages went out from the journal thread, not from the writer or the flusher
    expect(data.reduce((s, io) => s + io.nsect, 0)).toBe((1 * MiB) / 512)
    expect(r.ios.filter((io) => r.inFile(a, io) && io.who !== 'kjournald')).toHaveLength(0)
    // descriptor + metadata blocks, then the commit record: two log writes, in that order
    expect(log.length).toBe(2)
    const lastData = Math.max(...data.map((io) => io.done))
    expect(log[0].t).toBeGreaterThanOrEqual(lastData) // the data is on disk before the log is written
    expect(log[1].t).toBeGreaterThanOrEqual(log[0].done) // the commit record after the log blocks
    expect(log[1].nsect).toBe(8)
    // jbd of 2.6.27: every write of the commit is an ordinary (async) WRITE
    expect(kj.every((io) => io.op === WRITE && !io.sync)).toBe(true)
    // the journal region is sequential: the commit record follows the logged blocks
    expect(log[1].sector).toBe(log[0].sector + log[0].nsect)
    const steps = r.log.map((e) => e.what)
    expect(steps).toEqual(['start', 'data-done', 'log-done', 'committed'])
    expect(r.fs!.stats.commits).toBe(1)
  })

  it('an fsync commits the whole running transaction at once: it waits for everyone’s data', () => {
    const r = fsRig('ext3')
    r.kernel.addFile({ name: 'big', size: 16 * MiB })
    r.kernel.addFile({ name: 'small', size: 1 * MiB })
    r.spawn('writer', [write('big', 0, 8 * MiB)])
    const f = r.spawn('fsyncer', [sleep(500), write('small', 0, 4096), fsync('small')])
    r.run(3000)
    const big = r.file('big')
    const starts = r.log.filter((e) => e.what === 'start')
    expect(starts[0].detail).toBe('fsync')
    expect(starts[0].at).toBeLessThan(1 * SECOND) // not the 5 s timer
    const bigData = r.ios.filter((io) => r.inFile(big, io))
    expect(bigData.reduce((s, io) => s + io.nsect, 0)).toBe((8 * MiB) / 512)
    expect(bigData.every((io) => io.who === 'kjournald')).toBe(true)
    const fsyncReturned = f.script.at[2]
    const lastBig = Math.max(...bigData.map((io) => io.done))
    expect(fsyncReturned).toBeGreaterThanOrEqual(lastBig)
    // the log of that transaction was written only once the other process's data was on disk
    const firstLog = r.ios.find(
      (io) => io.who === 'kjournald' && !r.inFile(big, io) && !r.inFile(r.file('small'), io),
    )!
    expect(firstLog.t).toBeGreaterThanOrEqual(lastBig)
    // the commit record was the last thing the fsync waited for
    const commit = r.log.find((e) => e.what === 'committed')!
    expect(fsyncReturned).toBeGreaterThanOrEqual(commit.at)
  })

  it('data=writeback: the same fsync writes only its own file and the log', () => {
    const r = fsRig('ext3', { data: 'writeback' })
    r.kernel.addFile({ name: 'big', size: 16 * MiB })
    r.kernel.addFile({ name: 'small', size: 1 * MiB })
    r.spawn('writer', [write('big', 0, 8 * MiB)])
    const f = r.spawn('fsyncer', [sleep(500), write('small', 0, 4096), fsync('small')])
    r.run(3000)
    expect(r.ios.filter((io) => r.inFile(r.file('big'), io))).toHaveLength(0)
    expect(f.script.at[2]).toBeLessThan(600 * MS)
    expect(r.ios.filter((io) => r.inFile(r.file('small'), io) && io.who === 'fsyncer')).toHaveLength(1)
  })

  it('commitIo sync-for-fsync: an fsync-driven commit is synchronous, a timer commit stays async', () => {
    const r = fsRig('ext3', { commitIo: 'sync-for-fsync' })
    r.kernel.addFile({ name: 'a', size: 1 * MiB })
    r.kernel.addFile({ name: 'b', size: 1 * MiB })
    r.spawn('p', [write('a', 0, 4096), fsync('a'), sleep(100), write('b', 0, 4096)])
    r.run(7000)
    const kj = journalIos(r, 'kjournald')
    const reasons = r.log.filter((e) => e.what === 'start').map((e) => e.detail)
    expect(reasons).toEqual(['fsync', 'timer'])
    const firstCommitEnd = r.log.find((e) => e.what === 'committed')!.at
    expect(kj.filter((io) => io.t <= firstCommitEnd).every((io) => io.sync)).toBe(true)
    expect(kj.filter((io) => io.t > firstCommitEnd).every((io) => !io.sync)).toBe(true)
  })

  it('commit= sets the timer', () => {
    const r = fsRig('ext3', { commitSeconds: 1 })
    r.kernel.addFile({ name: 'a', size: 1 * MiB })
    r.spawn('p', [write('a', 0, 4096)])
    r.run(3000)
    const start = r.log.find((e) => e.what === 'start')!
    expect(start.at).toBeGreaterThanOrEqual(1 * SECOND)
    expect(start.at).toBeLessThan(1.1 * SECOND)
  })
})
