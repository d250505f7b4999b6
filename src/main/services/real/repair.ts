import { rmSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { runCommand } from './exec'
import type { JournalData } from './journal'
import { readJournals } from './journal'
import { detachLoopsBackedBy } from './loop-device'
import { killGroup } from './process-group'
import { processGroupMembers } from './proc-identity'
import { restoreScheduler } from './scheduler-control'
import { RUN_PREFIX, SCRATCH_PREFIX } from './state-dir'
import { readSys, sysBlockDir } from './sysfs'

/** What replaying one journal did. */
export interface RepairReport {
  journal: string
  /** The lab process that wrote it (dead, or alive when only listed). */
  owner: string
  ownerAlive: boolean
  /** What was changed: engines stopped, schedulers restored, loop devices detached, files deleted. */
  actions: string[]
  /** What was looked at and left as it was (a device gone, or already as saved). */
  notes: string[]
  problems: string[]
}

/** Engines the lab starts; a process group with anything else in it is not ours to kill. */
const OUR_COMMANDS = new Set(['fio', 'sh', 'sleep', 'dd', 'bonnie++', 'bonnie'])

/**
 * Replay the journals left by lab processes that are gone (crashed, killed): stop their engines,
 * restore every switched scheduler and its tunables, detach their scratch loop devices and delete
 * the files. A journal is deleted once fully repaired; journals of running lab processes are only
 * listed. Called at the start of every real-device command and by `iosched-lab doctor`.
 */
export async function repairJournals(stateDir: string): Promise<RepairReport[]> {
  const reports: RepairReport[] = []
  for (const j of readJournals(stateDir)) {
    const report: RepairReport = {
      journal: j.path,
      owner: j.data ? `pid ${j.data.owner.pid} (${j.data.owner.argv.join(' ')})` : 'unknown',
      ownerAlive: j.ownerAlive,
      actions: [],
      notes: [],
      problems: [],
    }
    reports.push(report)
    if (!j.data) {
      report.problems.push(
        `cannot read the journal: ${j.error}; check the devices by hand (iosched-lab devices)`,
      )
      continue
    }
    if (j.ownerAlive) continue
    await replay(j.data, report)
    if (report.problems.length === 0) rmSync(j.path, { force: true })
  }
  return reports
}

/** Mount points under `dir` (from /proc/self/mounts; octal escapes decoded). */
function mountsUnder(dir: string): string[] {
  const text = readSys('/proc/self/mounts') ?? ''
  return text
    .split('\n')
    .map((l) =>
      (l.split(' ')[1] ?? '').replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))),
    )
    .filter((m) => m.startsWith(dir + '/'))
}

async function replay(d: JournalData, r: RepairReport): Promise<void> {
  for (const g of d.groups) {
    const members = processGroupMembers(g.pgid)
    if (members.length === 0) continue
    const strangers = members.filter((m) => !OUR_COMMANDS.has(m.comm))
    if (strangers.length > 0) {
      r.problems.push(
        `process group ${g.pgid} (was ${g.command}) now holds ${strangers.map((s) => `${s.comm}[${s.pid}]`).join(', ')}: not ours, left alone`,
      )
      continue
    }
    const gone = await killGroup(g.pgid, 'SIGKILL')
    if (gone)
      r.actions.push(
        `stopped ${g.command} (process group ${g.pgid}: ${members.map((m) => m.comm).join(', ')})`,
      )
    else r.problems.push(`process group ${g.pgid} (${g.command}) would not die`)
  }
  for (const dev of d.devices) {
    const dir = sysBlockDir(dev.name)
    const majMin = readSys(join(dir, 'dev'))
    const back = readSys(join(dir, 'loop/backing_file'))?.replace(/ \(deleted\)$/, '') ?? null
    if (majMin === null) {
      r.notes.push(`${dev.name} is gone: nothing to restore`)
      continue
    }
    if (majMin !== dev.majMin || (dev.loopBackingFile !== null && back !== dev.loopBackingFile)) {
      r.notes.push(`${dev.name} is now a different device (${majMin}${back ? `, ${back}` : ''}): left alone`)
      continue
    }
    const res = restoreScheduler(dev.name, dev.original)
    r.actions.push(...res.actions)
    r.problems.push(...res.problems)
    if (res.actions.length === 0 && res.problems.length === 0)
      r.notes.push(`${dev.name}: already ${dev.original.scheduler} with its tunables`)
  }
  for (const dir of d.tempDirs ?? []) {
    if (!basename(dir).startsWith(RUN_PREFIX)) continue
    // a filesystem the bonnie++ engine mounted there
    for (const m of mountsUnder(dir)) {
      await runCommand('umount', ['--lazy', m], { allowFailure: true })
      r.actions.push(`unmounted ${m}`)
    }
    rmSync(dir, { recursive: true, force: true })
    r.actions.push(`deleted ${dir}`)
  }
  for (const l of d.loops) {
    try {
      for (const dev of await detachLoopsBackedBy(l.backingFile))
        r.actions.push(`detached ${dev} (${l.backingFile})`)
    } catch (e) {
      r.problems.push(`cannot detach the loop device on ${l.backingFile}: ${(e as Error).message}`)
      continue
    }
    if (basename(l.tempDir).startsWith(SCRATCH_PREFIX) && dirname(l.backingFile) === l.tempDir) {
      rmSync(l.tempDir, { recursive: true, force: true })
      r.actions.push(`deleted ${l.tempDir}`)
    }
  }
}
