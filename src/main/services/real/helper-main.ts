import { parseArgs } from 'node:util'
import { serveRealHelper } from './helper-server'
import { LocalRealBackend } from './real-backend'

export const HELPER_USAGE =
  'real-helper [--state-dir DIR] [--scratch-dir DIR]   the privileged helper of the app (JSON lines on stdin/stdout; root)'

/**
 * The privileged helper as a program: `iosched-lab real-helper` (CLI) and the app's helper mode
 * (src/main/helper-mode.ts) both run this. The state directory comes from the app (pkexec clears the
 * environment, and the journals and presets belong in the user's own directory).
 */
export async function runRealHelper(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { 'state-dir': { type: 'string' }, 'scratch-dir': { type: 'string' } },
    allowPositionals: false,
  })
  if (values['scratch-dir']) process.env.IOSCHED_LAB_SCRATCH_DIR = values['scratch-dir']
  const stop = new AbortController()
  const onSignal = (): void => stop.abort()
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(s, onSignal)
  // stdout carries the protocol only
  console.log = (...a: unknown[]) => void process.stderr.write(a.map(String).join(' ') + '\n')
  const status = await serveRealHelper({
    input: process.stdin,
    output: process.stdout,
    backend: new LocalRealBackend(values['state-dir']),
    log: (l) => void process.stderr.write(l + '\n'),
    signal: stop.signal,
  })
  process.stdin.destroy()
  return status
}
