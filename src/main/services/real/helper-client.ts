import type { ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import type { ResolvedSpec } from '../../../shared/experiment/resolved'
import type { Diagnosis, DoctorCheck } from './doctor'
import type { PresetDocument } from './fingerprint'
import type { HelperMessage, HelperMethod, HelperRequest } from './helper-protocol'
import { HELPER_PROTOCOL, HelperCallError } from './helper-protocol'
import type { FingerprintRunOptions, RealBackend, RealRunOptions, ValidationRunOptions } from './real-backend'
import type { RealExperimentEvents } from './real-experiment'
import type { RealExperimentResult } from './real-result'
import type { ValidateEvents } from './validate'
import type { ValidateReport } from '../../../shared/validate/report'

/** Start the helper: `pkexec … real-helper` in the app; the plain command in tests (already root). */
export type HelperSpawn = () => ChildProcess

interface Pending {
  resolve(v: unknown): void
  reject(e: Error): void
  events?: ValidateEvents
}

export interface HelperHello {
  pid: number
  root: boolean
  stateDir: string
}

/** Why the helper did not start, from pkexec's exit status (pkexec(1)), or why it could not be run. */
function startFailure(
  code: number | null,
  signal: string | null,
  stderr: string,
  spawnError?: string,
): string {
  const tail = stderr.trim().split('\n').slice(-3).join(' | ')
  const why = spawnError
    ? `it could not be run (${spawnError}): is pkexec (polkit) installed?`
    : code === 126
      ? 'the password dialog was dismissed'
      : code === 127
        ? 'root was not granted (not authorised, no polkit agent, or pkexec could not run the helper)'
        : signal
          ? `it was killed by ${signal}`
          : `it exited with status ${code}`
  return `real device tests need root, and the privileged helper did not start: ${why}${tail ? ` (${tail})` : ''}. Try again, or start the app with sudo.`
}

/**
 * RealBackend through the privileged helper (helper-protocol.ts): started on the first call that
 * needs it — the one moment the user is asked for root — and kept for the session. If it goes away,
 * its calls fail and the next call starts it again. `close` ends its input: it restores every
 * device and exits (a process of root's cannot be killed from here, and need not be).
 */
export class HelperBackend implements RealBackend {
  readonly kind = 'helper'
  private proc: ChildProcess | null = null
  private hello: Promise<HelperHello> | null = null
  private readonly pending = new Map<number, Pending>()
  private nextId = 1
  private info: HelperHello | null = null

  constructor(private readonly spawnHelper: HelperSpawn) {}

  get running(): boolean {
    return this.info !== null && this.proc !== null
  }

  /** The helper's pid and whether it is root, once it said hello. */
  get helper(): HelperHello | null {
    return this.info
  }

  start(): Promise<void> {
    return this.connect().then(() => undefined)
  }

  checks(): Promise<DoctorCheck[]> {
    return this.call('checks', []) as Promise<DoctorCheck[]>
  }

  doctor(): Promise<Diagnosis & { stateDir: string }> {
    return this.call('doctor', []) as Promise<Diagnosis & { stateDir: string }>
  }

  run(
    key: string,
    spec: ResolvedSpec,
    o: RealRunOptions,
    ev: RealExperimentEvents,
  ): Promise<RealExperimentResult> {
    return this.call('run', [key, spec, o], ev) as Promise<RealExperimentResult>
  }

  fingerprint(key: string, o: FingerprintRunOptions, ev: RealExperimentEvents): Promise<PresetDocument> {
    return this.call('fingerprint', [key, o], ev) as Promise<PresetDocument>
  }

  validate(key: string, o: ValidationRunOptions, ev: ValidateEvents): Promise<ValidateReport> {
    return this.call('validate', [key, o], ev) as Promise<ValidateReport>
  }

  async cancel(key: string): Promise<boolean> {
    if (!this.running) return false
    return (await this.call('cancel', [key])) as boolean
  }

  /** Ask the helper to restore everything and exit; resolves when it has (or after `ms`). */
  async close(ms = 30_000): Promise<void> {
    const p = this.proc
    if (!p) return
    const exited = new Promise<void>((r) =>
      p.exitCode !== null || p.signalCode !== null ? r() : p.once('close', () => r()),
    )
    p.stdin?.end()
    await Promise.race([exited, new Promise((r) => setTimeout(r, ms).unref())])
  }

  private connect(): Promise<HelperHello> {
    if (this.hello) return this.hello
    this.hello = new Promise<HelperHello>((resolve, reject) => {
      let proc: ChildProcess
      try {
        proc = this.spawnHelper()
      } catch (e) {
        return reject(new Error(startFailure(null, null, '', (e as Error).message)))
      }
      this.proc = proc
      let stderr = ''
      let greeted = false
      proc.stderr?.on('data', (d: Buffer) => {
        stderr = (stderr + d.toString()).slice(-4000)
      })
      let spawnError: string | undefined
      proc.on('error', (e) => {
        spawnError = e.message
        if (!greeted) reject(new Error(startFailure(null, null, '', e.message)))
      })
      const lines = createInterface({ input: proc.stdout!, crlfDelay: Infinity })
      lines.on('line', (line) => {
        let m: HelperMessage
        try {
          m = JSON.parse(line) as HelperMessage
        } catch {
          return
        }
        if (m.type === 'hello') {
          if (m.protocol !== HELPER_PROTOCOL) {
            reject(
              new Error(`the privileged helper speaks protocol ${m.protocol}, this app ${HELPER_PROTOCOL}`),
            )
            proc.stdin?.end()
            return
          }
          greeted = true
          this.info = { pid: m.pid, root: m.root, stateDir: m.stateDir }
          resolve(this.info)
        } else this.receive(m)
      })
      // 'close', not 'exit': the last lines of its stdout are read by then
      proc.on('close', (code, signal) => {
        if (this.proc === proc) {
          this.proc = null
          this.hello = null
          this.info = null
        }
        const why = greeted
          ? `the privileged helper exited (${signal ?? `status ${code}`})${stderr.trim() ? `: ${stderr.trim().split('\n').slice(-2).join(' | ')}` : ''}`
          : startFailure(code, signal, stderr, spawnError)
        if (!greeted) reject(new Error(why))
        for (const [id, p] of this.pending) {
          this.pending.delete(id)
          p.reject(new Error(why))
        }
      })
    })
    // a failed start is forgotten, so the next call asks again
    this.hello.catch(() => {
      this.hello = null
    })
    return this.hello
  }

  private receive(m: HelperMessage): void {
    if (m.type === 'hello') return
    const p = this.pending.get(m.id)
    if (!p) return
    if (m.type === 'event') {
      const f = p.events?.[m.name] as ((...a: unknown[]) => void) | undefined
      f?.(...m.args)
      return
    }
    this.pending.delete(m.id)
    if (m.type === 'result') p.resolve(m.value)
    else p.reject(new HelperCallError(m.error))
  }

  private async call(method: HelperMethod, params: unknown[], events?: ValidateEvents): Promise<unknown> {
    await this.connect()
    const proc = this.proc
    if (!proc?.stdin) throw new Error('the privileged helper is not running')
    const id = this.nextId++
    const req: HelperRequest = { id, method, params }
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, events })
      proc.stdin!.write(JSON.stringify(req) + '\n')
    })
  }
}
