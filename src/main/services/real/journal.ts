import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import type { ProcessIdentity } from './proc-identity'
import { isAlive, selfIdentity } from './proc-identity'
import type { SchedulerSnapshot } from './scheduler-control'

/** A device whose scheduler the lab switched: how to recognise it and what to put back. */
export interface JournalDevice {
  name: string
  /** `major:minor`, so a different device that took the name later is left alone. */
  majMin: string
  /** For a loop device: its backing file at the time (same reason). */
  loopBackingFile: string | null
  original: SchedulerSnapshot
  switchedTo: string
}

/** A scratch loop device the lab created (device null until losetup has answered). */
export interface JournalLoop {
  device: string | null
  backingFile: string
  tempDir: string
}

/** A process group the lab started (fio, dd, bonnie++ under a watchdog). */
export interface JournalGroup {
  pgid: number
  command: string
}

export interface JournalData {
  schema: 'iosched-lab/journal@1'
  owner: ProcessIdentity & { argv: string[] }
  createdAt: string
  devices: JournalDevice[]
  loops: JournalLoop[]
  groups: JournalGroup[]
  /** Working directories (job files, reports) to delete. */
  tempDirs: string[]
}

export const journalDir = (stateDir: string): string => join(stateDir, 'journal')

/**
 * The journal of one lab process: every change the lab must undo (a switched scheduler, a loop
 * device, a running engine) is written here, synchronously and atomically, *before* it is made,
 * and removed once undone. A lab that crashes or is killed leaves its journal behind, and the next
 * start (or `iosched-lab doctor`) replays it. The file disappears when nothing is left to undo.
 */
export class Journal {
  private readonly data: JournalData
  readonly path: string

  constructor(readonly stateDir: string) {
    const me = selfIdentity()
    this.path = join(journalDir(stateDir), `${me.pid}-${me.startTime}.json`)
    this.data = {
      schema: 'iosched-lab/journal@1',
      owner: { ...me, argv: process.argv.slice(1) },
      createdAt: new Date().toISOString(),
      devices: [],
      loops: [],
      groups: [],
      tempDirs: [],
    }
  }

  get devices(): readonly JournalDevice[] {
    return this.data.devices
  }

  addDevice(d: JournalDevice): void {
    this.data.devices = this.data.devices.filter((x) => x.name !== d.name).concat(d)
    this.save()
  }

  removeDevice(name: string): void {
    this.data.devices = this.data.devices.filter((x) => x.name !== name)
    this.save()
  }

  addLoop(l: JournalLoop): void {
    this.data.loops.push(l)
    this.save()
  }

  setLoopDevice(backingFile: string, device: string): void {
    for (const l of this.data.loops) if (l.backingFile === backingFile) l.device = device
    this.save()
  }

  removeLoop(backingFile: string): void {
    this.data.loops = this.data.loops.filter((l) => l.backingFile !== backingFile)
    this.save()
  }

  addGroup(g: JournalGroup): void {
    this.data.groups.push(g)
    this.save()
  }

  removeGroup(pgid: number): void {
    this.data.groups = this.data.groups.filter((g) => g.pgid !== pgid)
    this.save()
  }

  addTempDir(dir: string): void {
    this.data.tempDirs.push(dir)
    this.save()
  }

  removeTempDir(dir: string): void {
    this.data.tempDirs = this.data.tempDirs.filter((d) => d !== dir)
    this.save()
  }

  private save(): void {
    const d = this.data
    if (d.devices.length === 0 && d.loops.length === 0 && d.groups.length === 0 && d.tempDirs.length === 0) {
      rmSync(this.path, { force: true })
      return
    }
    mkdirSync(journalDir(this.stateDir), { recursive: true })
    const tmp = `${this.path}.tmp`
    const fd = openSync(tmp, 'w', 0o600)
    try {
      writeSync(fd, JSON.stringify(d, null, 2) + '\n')
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(tmp, this.path)
  }
}

/** A journal file found on disk, and whether the process that wrote it still runs. */
export interface FoundJournal {
  path: string
  data: JournalData | null
  /** Why it could not be read, when `data` is null. */
  error?: string
  ownerAlive: boolean
}

export function readJournals(stateDir: string): FoundJournal[] {
  let names: string[]
  try {
    names = readdirSync(journalDir(stateDir)).filter((n) => n.endsWith('.json'))
  } catch {
    return []
  }
  return names.map((n) => {
    const path = join(journalDir(stateDir), n)
    try {
      const data = JSON.parse(readFileSync(path, 'utf8')) as JournalData
      if (data.schema !== 'iosched-lab/journal@1') throw new Error(`unknown schema ${String(data.schema)}`)
      return { path, data, ownerAlive: isAlive(data.owner) }
    } catch (e) {
      return { path, data: null, error: (e as Error).message, ownerAlive: false }
    }
  })
}

/** Devices another, still running lab process has switched: not to be touched by this one. */
export function devicesHeldByOthers(stateDir: string): Map<string, number> {
  const me = selfIdentity()
  const held = new Map<string, number>()
  for (const j of readJournals(stateDir))
    if (j.data && j.ownerAlive && j.data.owner.pid !== me.pid)
      for (const d of j.data.devices) held.set(d.name, j.data.owner.pid)
  return held
}
