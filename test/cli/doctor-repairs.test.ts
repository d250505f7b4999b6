// What replaying journals changed, apart from what it only looked at — on a fake /sys/block
// (IOSCHED_LAB_SYSFS_BLOCK) and a temporary state folder: no device is touched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { JournalData, JournalDevice } from '../../src/main/services/real/journal'
import { journalDir } from '../../src/main/services/real/journal'
import { selfIdentity } from '../../src/main/services/real/proc-identity'
import { repairJournals } from '../../src/main/services/real/repair'

const dir = mkdtempSync(join(tmpdir(), 'iosched-doctor-'))
const sys = join(dir, 'sys-block')
const state = join(dir, 'state')

/** A fake block device: its `major:minor`, scheduler line and mq-deadline tunables. */
function fakeDevice(name: string, majMin: string, tunables: Record<string, string>): void {
  mkdirSync(join(sys, name, 'queue/iosched'), { recursive: true })
  writeFileSync(join(sys, name, 'dev'), `${majMin}\n`)
  writeFileSync(join(sys, name, 'queue/scheduler'), 'none [mq-deadline] kyber\n')
  for (const [k, v] of Object.entries(tunables)) writeFileSync(join(sys, name, 'queue/iosched', k), `${v}\n`)
}

const device = (name: string, majMin: string): JournalDevice => ({
  name,
  majMin,
  loopBackingFile: null,
  original: { scheduler: 'mq-deadline', tunables: { read_expire: '500' } },
  switchedTo: 'bfq',
})

/** A journal as a lab process leaves it; `pid` 0x7ffffff0 with start time 1 has never run here. */
function journal(file: string, owner: { pid: number; startTime: number }, devices: JournalDevice[]): void {
  const data: JournalData = {
    schema: 'iosched-lab/journal@1',
    owner: { ...owner, argv: ['iosched-lab', 'run', 'x.json', '--real'] },
    createdAt: '2026-12-04T00:00:00.000Z',
    devices,
    loops: [],
    groups: [],
    tempDirs: [],
  }
  mkdirSync(journalDir(state), { recursive: true })
  writeFileSync(join(journalDir(state), file), JSON.stringify(data))
}

describe('doctor: repairs apart from what it left as it was', () => {
  const saved = process.env.IOSCHED_LAB_SYSFS_BLOCK
  beforeAll(() => {
    process.env.IOSCHED_LAB_SYSFS_BLOCK = sys
  })
  afterAll(() => {
    if (saved === undefined) delete process.env.IOSCHED_LAB_SYSFS_BLOCK
    else process.env.IOSCHED_LAB_SYSFS_BLOCK = saved
  })

  it('a device gone, a different one, one already as saved: notes; a tunable put back: an action', async () => {
    fakeDevice('fk0', '254:0', { read_expire: '500' }) // already as saved
    fakeDevice('fk1', '254:99', { read_expire: '500' }) // a different device took the name
    fakeDevice('fk2', '254:2', { read_expire: '200' }) // left changed by the crash
    const dead = { pid: 0x7ffffff0, startTime: 1 }
    journal('dead.json', dead, [
      device('fk0', '254:0'),
      device('fk1', '254:1'),
      device('gone9', '254:9'),
      device('fk2', '254:2'),
    ])
    journal('alive.json', selfIdentity(), [device('fk0', '254:0')])
    const reports = await repairJournals(state)
    const d = reports.find((r) => r.journal.endsWith('dead.json'))!
    expect(d.ownerAlive).toBe(false)
    expect(d.problems).toEqual([])
    expect(d.notes).toEqual([
      'fk0: already mq-deadline with its tunables',
      'fk1 is now a different device (254:99): left alone',
      'gone9 is gone: nothing to restore',
    ])
    expect(d.actions).toEqual(['fk2: mq-deadline read_expire 200 → 500'])
    expect(readFileSync(join(sys, 'fk2/queue/iosched/read_expire'), 'utf8')).toBe('500')
    const a = reports.find((r) => r.journal.endsWith('alive.json'))!
    expect(a).toMatchObject({ ownerAlive: true, actions: [], notes: [], problems: [] })
  })
})
