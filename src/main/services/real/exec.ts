import { spawn } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'

/** What a finished command left behind. */
export interface CommandOutput {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

/** A command that could not start or exited with a failure; the message names the command. */
export class CommandError extends Error {
  constructor(
    readonly command: string,
    readonly args: readonly string[],
    readonly output: CommandOutput | null,
    detail: string,
  ) {
    super(`${[command, ...args].join(' ')}: ${detail}`)
    this.name = 'CommandError'
  }
}

/**
 * Run a program with an explicit argument array (never a shell string) and collect its output.
 * Rejects with a CommandError when it cannot start or, unless `allowFailure`, exits non-zero.
 */
export function runCommand(
  command: string,
  args: readonly string[],
  opts: { allowFailure?: boolean; input?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<CommandOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      timeout: opts.timeoutMs,
      env: opts.env,
    })
    let stdout = ''
    let stderr = ''
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.on('error', (e: NodeJS.ErrnoException) =>
      reject(
        new CommandError(
          command,
          args,
          null,
          e.code === 'ENOENT' ? `${command} is not installed (not found on PATH)` : e.message,
        ),
      ),
    )
    child.on('close', (code, signal) => {
      const out = { code, signal, stdout, stderr }
      if (!opts.allowFailure && code !== 0) {
        const why = signal ? `killed by ${signal}` : `exit status ${code}`
        reject(new CommandError(command, args, out, `${why}${stderr.trim() ? `: ${stderr.trim()}` : ''}`))
      } else resolve(out)
    })
    if (child.stdin) {
      // a command that exits without reading its input must not crash us with EPIPE
      child.stdin.on('error', () => undefined)
      child.stdin.end(opts.input)
    }
  })
}

/** Full path of an executable on PATH (plus the sbin directories root tools live in), or null. */
export function findExecutable(name: string): string | null {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/local/sbin', '/usr/sbin', '/sbin']
  for (const d of dirs) {
    if (!d) continue
    const p = join(d, name)
    try {
      accessSync(p, constants.X_OK)
      return p
    } catch {
      // not here
    }
  }
  return null
}
