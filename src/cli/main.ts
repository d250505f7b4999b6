import { ApiError } from '../shared/api/errors'
import { commands } from './commands/index'
import { exitStatusOf } from './exit-status'
import { InputError } from './input-error'
import { loadUserPresets } from '../main/services/user-presets'

const usage = async (): Promise<string> =>
  [
    'usage: iosched-lab <command> [options]',
    '',
    'commands:',
    ...(await Promise.all(commands.map((c) => c.load()))).flatMap((c) => c.usage.map((u) => `  ${u}`)),
    '  help                                this text',
    '',
  ].join('\n')

/** The command line. Returns the exit status (exit-status.ts): 0 ok, 1 a run failed, 2 bad input … */
export async function main(
  argv: string[],
  out = (s: string) => void process.stdout.write(s + '\n'),
  err = (s: string) => void process.stderr.write(s + '\n'),
): Promise<number> {
  const [name, ...rest] = argv
  // the user's own device presets (from `fingerprint`) can be named in specs like built-in ones
  for (const p of loadUserPresets().problems) err(`iosched-lab: ignoring device preset ${p}`)
  try {
    if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
      out(await usage())
      return name === undefined ? 2 : 0
    }
    const cmd = commands.find((c) => c.name === name)
    if (!cmd) throw new InputError([`unknown command "${name}"; try: iosched-lab help`])
    return await (await cmd.load()).run(rest, { out, err })
  } catch (e) {
    if (e instanceof InputError) {
      for (const l of e.lines) err(`iosched-lab: ${l}`)
      return 2
    }
    if (
      e instanceof Error &&
      'code' in e &&
      String((e as { code: unknown }).code).startsWith('ERR_PARSE_ARGS')
    ) {
      err(`iosched-lab: ${e.message}`)
      return 2
    }
    // the lab's own errors say what is wrong and where: no stack trace, a status that says which
    const status = e instanceof ApiError ? exitStatusOf(e.kind) : null
    if (status !== null) {
      err(`iosched-lab: ${(e as Error).message}`)
      return status
    }
    throw e
  }
}
