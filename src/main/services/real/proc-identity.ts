import { readdirSync } from 'node:fs'
import { readSys } from './sysfs'

/** A process by pid and kernel start time (clock ticks since boot), so a reused pid is not mistaken for it. */
export interface ProcessIdentity {
  pid: number
  startTime: number
}

/** Fields of /proc/PID/stat after the command name (which may hold spaces and parentheses). */
function statFields(pid: number): { comm: string; rest: string[] } | null {
  const s = readSys(`/proc/${pid}/stat`)
  if (s === null) return null
  const open = s.indexOf('(')
  const close = s.lastIndexOf(')')
  return { comm: s.slice(open + 1, close), rest: s.slice(close + 2).split(' ') }
}

export function identityOf(pid: number): ProcessIdentity | null {
  const f = statFields(pid)
  // rest[0] is field 3 (state); starttime is field 22.
  return f ? { pid, startTime: Number(f.rest[19]) } : null
}

export const selfIdentity = (): ProcessIdentity =>
  identityOf(process.pid) ?? { pid: process.pid, startTime: 0 }

/** Is this very process (same pid and start time) still running? */
export function isAlive(id: ProcessIdentity): boolean {
  const now = identityOf(id.pid)
  return now !== null && now.startTime === id.startTime
}

/** Members of a process group: pid and command name. */
export function processGroupMembers(pgid: number): { pid: number; comm: string }[] {
  const out: { pid: number; comm: string }[] = []
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue
    const f = statFields(Number(e))
    // rest[2] is field 5, the process group.
    if (f && Number(f.rest[2]) === pgid && f.rest[0] !== 'Z') out.push({ pid: Number(e), comm: f.comm })
  }
  return out
}
