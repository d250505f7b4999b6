import { spawn } from 'node:child_process'
import type { Journal } from './journal'
import { LineSplitter } from './fio-eta'
import { groupAlive, killGroup } from './process-group'

/**
 * The watchdog every engine (fio, dd, bonnie++) runs under: `sh` starts it in the background and
 * polls; if the lab process disappears (even by SIGKILL), the watchdog kills its whole process
 * group, so no engine outlives the lab. Its arguments arrive as positional parameters, never
 * interpolated into the script. SIGINT/SIGTERM are caught (a no-op) so the watchdog waits for the
 * engine to stop cleanly on a cancel.
 */
const WATCHDOG = [
  'parent=$1; shift',
  "trap ':' INT TERM",
  '"$@" &',
  'child=$!',
  'while kill -0 "$child" 2>/dev/null; do',
  '  if ! kill -0 "$parent" 2>/dev/null; then kill -KILL 0; fi',
  '  sleep 0.2',
  'done',
  'wait "$child"',
].join('\n')

export interface EngineExit {
  code: number | null
  signal: NodeJS.Signals | null
  /** Its stdout (the first MiB). */
  stdout: string
  stderr: string
  /** It was stopped by `cancel()`. */
  cancelled: boolean
}

export interface EngineProcess {
  /** Process group of the engine and its watchdog (= the watchdog's pid). */
  readonly pgid: number
  readonly done: Promise<EngineExit>
  /** Stop the whole group (SIGTERM, then SIGKILL) and wait for it to be gone. */
  cancel(): Promise<void>
  /** Ask it to finish now with `signal` (dd prints its summary on SIGINT), SIGKILL after a grace period. */
  stop(signal: NodeJS.Signals): Promise<EngineExit>
}

export interface EngineOptions {
  journal?: Journal
  /** Each line of the engine's stdout (fio's ETA lines are split on \r as well as \n). */
  onLine?(line: string): void
  /** Working directory (bonnie++ writes its files there). */
  cwd?: string
  /** Extra environment (e.g. LC_ALL=C, so dd prints decimal points). */
  env?: Record<string, string>
}

/** Start `command args…` in a process group of its own under the watchdog. */
export function startEngine(command: string, args: readonly string[], o: EngineOptions = {}): EngineProcess {
  const child = spawn('sh', ['-c', WATCHDOG, 'iosched-lab-watchdog', String(process.pid), command, ...args], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: o.cwd,
    env: o.env ? { ...process.env, ...o.env } : process.env,
  })
  const pgid = child.pid
  if (pgid === undefined) throw new Error(`cannot start ${command}: sh did not start`)
  o.journal?.addGroup({ pgid, command })
  let cancelled = false
  let stderr = ''
  let stdout = ''
  const split = new LineSplitter()
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    if (stdout.length < 1 << 20) stdout += d
    for (const l of split.push(d)) o.onLine?.(l)
  })
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    if (stderr.length < 1 << 20) stderr += d
  })
  const done = new Promise<EngineExit>((resolve, reject) => {
    child.on('error', (e) => reject(new Error(`cannot start ${command}: ${e.message}`)))
    child.on('close', (code, signal) => {
      for (const l of split.flush()) o.onLine?.(l)
      // the watchdog is gone; make sure nothing of the group is left before reporting
      const settle = groupAlive(pgid)
        ? killGroup(pgid, 'SIGTERM', cancelled ? 3000 : 10_000)
        : Promise.resolve(true)
      void settle.then(() => {
        o.journal?.removeGroup(pgid)
        resolve({ code, signal, stdout, stderr, cancelled })
      })
    })
  })
  return {
    pgid,
    done,
    async cancel() {
      cancelled = true
      await killGroup(pgid, 'SIGTERM', 3000)
      await done.catch(() => undefined)
    },
    async stop(signal) {
      await killGroup(pgid, signal, 3000)
      return done
    },
  }
}
