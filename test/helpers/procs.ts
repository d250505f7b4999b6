// Processes as the kernel sees them (/proc), for tests that check what is left running.
import { readFileSync, readdirSync } from 'node:fs'

export interface ProcStat {
  state: string
  ppid: number
  /** User and system CPU time so far, in seconds (clock ticks of 1/100 s). */
  cpuSeconds: number
}

/** A process's state, parent and CPU time; null when it is gone (a zombie counts as gone). */
export function procStat(pid: number): ProcStat | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (f[0] === 'Z' || f[0] === 'X') return null
    return { state: f[0], ppid: Number(f[1]), cpuSeconds: (Number(f[11]) + Number(f[12])) / 100 }
  } catch {
    return null
  }
}

/** The live children of `ppid`. */
export function childrenOf(ppid: number): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map(Number)
    .filter((pid) => procStat(pid)?.ppid === ppid)
}

/** Poll `f` every 25 ms until it holds; throws after `ms`. */
export async function waitUntil(f: () => boolean, ms: number, what = 'the condition'): Promise<void> {
  const end = Date.now() + ms
  while (!f()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

/** SIGKILL whichever of `pids` still run (a test's cleanup after a failure). */
export function killSurvivors(pids: number[]): void {
  for (const pid of pids)
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      /* gone */
    }
}

/**
 * The live children of `ppid` that are simulation workers (their command line names the worker
 * script): not a helper a tool started beside them, such as the esbuild service tsx runs while
 * it compiles sources on a cold cache.
 */
export function simulationChildrenOf(ppid: number): number[] {
  return childrenOf(ppid).filter((pid) => {
    try {
      return /workers[/\\]simulat/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))
    } catch {
      return false
    }
  })
}
