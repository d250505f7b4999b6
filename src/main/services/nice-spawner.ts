// Simulation children at a lower CPU priority (nice 10): a comparison keeps every core busy, and
// the window (or the browser showing the lab) must stay responsive while it does.
import type { ChildProcess } from 'node:child_process'
import { setPriority } from 'node:os'
import type { Spawner } from './run-pool'
import { forkSimulation } from './simulation-worker'

export const SIMULATION_NICE = 10

/** Lower a process's priority; harmless when not allowed (it then runs at the normal priority). */
export function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return
  try {
    setPriority(pid, SIMULATION_NICE)
  } catch {
    /* not permitted here: run at the normal priority */
  }
}

/** Node's fork, as the run pool does it (TypeScript sources through tsx), at a lower priority. */
export const niceForkSpawner: Spawner = (path): ChildProcess => {
  const child = forkSimulation(path)
  lowerPriority(child.pid)
  return child
}
