// Simulation children as Electron utility processes (Chromium's process model: no Node globals in
// the app's window, a crash takes down only the child). The run pool speaks ChildProcess; this
// adapter gives a UtilityProcess that face: send → postMessage, kill → kill, exit(code, signal).
import { EventEmitter } from 'node:events'
import type { ChildProcess } from 'node:child_process'
import { lowerPriority } from './services/nice-spawner'
import type { Spawner } from './services/run-pool'

/** What the adapter needs of Electron's UtilityProcess (a fake in tests). */
export interface UtilityLike {
  readonly stderr: NodeJS.ReadableStream | null
  readonly pid: number | undefined
  postMessage(message: unknown): void
  kill(): boolean
  on(event: 'exit', listener: (code: number) => void): unknown
  on(event: 'message', listener: (message: unknown) => void): unknown
  on(event: 'spawn', listener: () => void): unknown
}

export type UtilityFork = (modulePath: string) => UtilityLike

/** Wrap a utility process as the part of ChildProcess the run pool uses. */
export function asChildProcess(u: UtilityLike): ChildProcess {
  const child = new EventEmitter() as EventEmitter & {
    exitCode: number | null
    signalCode: NodeJS.Signals | null
    stderr: NodeJS.ReadableStream | null
    send(m: unknown): boolean
    kill(signal?: NodeJS.Signals): boolean
  }
  child.exitCode = null
  child.signalCode = null
  child.stderr = u.stderr
  let killedWith: NodeJS.Signals | null = null
  child.send = (m) => {
    u.postMessage(m)
    return true
  }
  child.kill = (signal = 'SIGTERM') => {
    if (child.exitCode !== null || child.signalCode !== null) return false
    killedWith = signal
    return u.kill()
  }
  u.on('message', (m) => child.emit('message', m))
  // Simulations yield the CPU to the window (nice 10), as in the browser host.
  u.on('spawn', () => lowerPriority(u.pid))
  u.on('exit', (code) => {
    // A killed utility process reports only a code; report the signal we sent, as fork would.
    if (killedWith) child.signalCode = killedWith
    else child.exitCode = code
    child.emit('exit', killedWith ? null : code, killedWith)
  })
  return child as unknown as ChildProcess
}

/** A Spawner for the run pool that starts each simulation with `fork` (utilityProcess.fork). */
export function utilitySpawner(fork: UtilityFork): Spawner {
  return (path) => asChildProcess(fork(path))
}
