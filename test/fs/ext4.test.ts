import { describe, expect, it } from 'vitest'
import { SECOND } from '../../src/shared/sim/time'
import { fsRig, fsync, sleep, write } from './rig'
import type { Step } from './rig'

const MiB = 1 << 20
const JBD2 = 'jbd2/sda1-8'

describe('ext4 (jbd2, delayed allocation)', () => {
  it('an fsync does not wait for other files’ delayed data: only its own, then the commit', () => {
    const r = fsRig('ext4')
    r.kernel.addFile({ name: 'big', size: 16 * MiB })
    r.kernel.addFile({ name: 'small', size: 1 * MiB })
    r.spawn('writer', [write('big', 0, 8 * MiB)])
    const f = r.spawn('fsyncer', [sleep(500), write('small', 0, 4096), fsync('small')])
    r.run(3000)
    expect(r.ios.filter((io) => r.inFile(r.file('big'), io))).toHaveLength(0)
    expect(r.file('big').dirty).toBe((8 * MiB) / 4096)
    // its own data from its own context, then jbd2's log and commit record, synchronous
    const own = r.ios.filter((io) => r.inFile(r.file('small'), io))
    expect(own.map((io) => io.who)).toEqual(['fsyncer'])
    const j = r.ios.filter((io) => io.who === JBD2)
    expect(j).toHaveLength(2)
    expect(j[0].t).toBeGreaterThanOrEqual(own[0].done) // file_write_and_wait_range before the commit
    expect(j.every((io) => io.sync)).toBe(true)
    expect(f.script.at[2]).toBeGreaterThanOrEqual(j[1].done)
    expect(r.log.filter((e) => e.what === 'start').map((e) => e.detail)).toEqual(['fsync'])
  })

  it('delayed allocation: blocks (and their bitmap) join a transaction only when writeback writes the pages', () => {
    const r = fsRig('ext4')
    r.kernel.addFile({ name: 'f', size: 1 * MiB })
    r.spawn('p', [(sys, file) => sys.truncate(file('f')), write('f', 0, 64 * 1024)])
    r.run(50)
    const ino = r.fs!.inode(r.file('f'))!
    expect(ino.allocatedPages).toBe(0)
    expect(ino.delallocEnd).toBe(16)
    r.spawn('syncer', [fsync('f')], 60)
    r.run(200)
    expect(ino.allocatedPages).toBe(16)
  })

  it('fdatasync of an overwrite (no size or block change) needs no commit; fsync does (mtime)', () => {
    const run = (datasync: boolean) => {
      const r = fsRig('ext4')
      r.kernel.addFile({ name: 'f', size: 1 * MiB })
      r.spawn('p', [sleep(20), write('f', 0, 4096), fsync('f', datasync)])
      r.run(500)
      return r.fs!.stats.commits
    }
    expect(run(true)).toBe(0)
    expect(run(false)).toBe(1)
  })

  it('dd oflag=dsync on a truncated file: every record costs a data write and a jbd2 commit', () => {
    const r = fsRig('ext4')
    r.kernel.addFile({ name: 'img', size: 1 * MiB })
    const steps: Step[] = [(sys, f) => sys.truncate(f('img'))]
    const n = 40
    for (let i = 0; i < n; i++) steps.push(write('img', i * 512, 512), fsync('img', true))
    const dd0 = r.spawn('dd', steps)
    r.run(2 * 1000)
    expect(r.fs!.stats.commits).toBe(n)
    const dd = r.ios.filter((io) => io.who === 'dd')
    expect(dd).toHaveLength(n)
    // the dd record and the commit alternate: dd never has a second write out before jbd2 commits
    const seq = r.ios.map((io) => (io.who === 'dd' ? 'd' : 'j')).join('')
    expect(seq).toBe('djj'.repeat(n))
    expect(dd0.task.finishedAt).toBeGreaterThan(0)
    expect(dd0.task.finishedAt).toBeLessThan(1 * SECOND)
  })
})

describe('barrier=1: the commit record past the scheduler', () => {
  it('goes to the device without the I/O scheduler seeing it (blk-flush), after a cache flush', () => {
    const r = fsRig('ext4', { barrier: true })
    r.kernel.addFile({ name: 'f', size: 1 * MiB })
    const seen: number[] = []
    const sched = r.queue.sched
    const insert = sched.insert.bind(sched)
    sched.insert = (rq, now) => {
      seen.push(rq.sector)
      insert(rq, now)
    }
    r.spawn('p', [(sys, file) => sys.truncate(file('f')), write('f', 0, 4096), fsync('f', true)])
    r.run(500)
    const j = r.ios.filter((io) => io.who === JBD2)
    expect(j).toHaveLength(2)
    expect(seen).toContain(j[0].sector) // the log write went through the scheduler
    expect(seen).not.toContain(j[1].sector) // the commit record did not
  })
})
