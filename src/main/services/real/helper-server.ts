import { createInterface } from 'node:readline'
import type { Readable, Writable } from 'node:stream'
import type { ResolvedSpec } from '../../../shared/experiment/resolved'
import type { ValidateEvents } from './validate'
import type { FingerprintRunOptions, RealRunOptions, ValidationRunOptions } from './real-backend'
import { LocalRealBackend } from './real-backend'
import { isRoot } from './prerequisites'
import type { EventName, HelperMessage, HelperRequest } from './helper-protocol'
import { errorData, EVENT_NAMES, HELPER_PROTOCOL } from './helper-protocol'

export interface HelperServerOptions {
  input: Readable
  output: Writable
  backend?: LocalRealBackend
  /** Where diagnostics go (never stdout: that is the protocol's). */
  log?(line: string): void
  /** Stop as if the input had ended (SIGTERM, SIGINT, SIGHUP). */
  signal?: AbortSignal
}

/**
 * Serve RealBackend calls over line-delimited JSON (helper-protocol.ts) until the input ends or a
 * `shutdown` arrives; then cancel every run — restoring its device — and resolve with the exit
 * status. Calls run concurrently (a `cancel` must reach a running `run`).
 */
export async function serveRealHelper(o: HelperServerOptions): Promise<number> {
  const backend = o.backend ?? new LocalRealBackend()
  const log = o.log ?? (() => undefined)
  const send = (m: HelperMessage): void => {
    o.output.write(JSON.stringify(m) + '\n')
  }
  const calls = new Set<Promise<void>>()
  let stopping = false

  const eventsFor = (id: number): ValidateEvents =>
    Object.fromEntries(
      EVENT_NAMES.map((name: EventName) => [
        name,
        (...args: unknown[]) => send({ type: 'event', id, name, args }),
      ]),
    ) as ValidateEvents

  const handle = async (r: HelperRequest): Promise<void> => {
    try {
      const p = r.params ?? []
      let value: unknown
      switch (r.method) {
        case 'checks':
          value = await backend.checks()
          break
        case 'doctor':
          value = await backend.doctor()
          break
        case 'run':
          value = await backend.run(
            String(p[0]),
            p[1] as ResolvedSpec,
            (p[2] ?? {}) as RealRunOptions,
            eventsFor(r.id),
          )
          break
        case 'fingerprint':
          value = await backend.fingerprint(
            String(p[0]),
            (p[1] ?? {}) as FingerprintRunOptions,
            eventsFor(r.id),
          )
          break
        case 'validate':
          value = await backend.validate(String(p[0]), (p[1] ?? {}) as ValidationRunOptions, eventsFor(r.id))
          break
        case 'cancel':
          value = await backend.cancel(String(p[0]))
          break
        case 'shutdown':
          stopping = true
          value = null
          break
        default:
          throw new Error(`unknown method ${JSON.stringify((r as { method: unknown }).method)}`)
      }
      send({ type: 'result', id: r.id, value: value ?? null })
    } catch (e) {
      send({ type: 'error', id: r.id, error: errorData(e) })
    }
  }

  const lines = createInterface({ input: o.input, crlfDelay: Infinity })
  o.signal?.addEventListener('abort', () => lines.close(), { once: true })
  send({
    type: 'hello',
    protocol: HELPER_PROTOCOL,
    pid: process.pid,
    root: isRoot(),
    stateDir: backend.stateDir,
  })
  for await (const line of lines) {
    if (!line.trim()) continue
    let req: HelperRequest
    try {
      req = JSON.parse(line) as HelperRequest
      if (typeof req.id !== 'number' || typeof req.method !== 'string')
        throw new Error('expected { id, method, params }')
    } catch (e) {
      log(`real-helper: ignoring a line that is not a request: ${(e as Error).message}`)
      continue
    }
    const c = handle(req).finally(() => calls.delete(c))
    calls.add(c)
    if (stopping) break
  }
  // the app is gone or said goodbye: put every device back before leaving
  if (backend.active > 0) log(`real-helper: cancelling ${backend.active} run(s) and restoring their devices`)
  await backend.close()
  await Promise.allSettled([...calls])
  lines.close()
  return 0
}
