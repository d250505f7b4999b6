import { parseArgs } from 'node:util'
import { listText } from './commands/list'
import { catalogue } from '../shared/catalogue'
import { runCommand } from './commands/run'
import { InputError } from './spec-file'

const USAGE = `usage: iosched-lab <command> [options]

commands:
  list [--json]                       schedulers, devices, hosts and workloads with their parameters
  run SPEC.json [--json|--csv]        run an experiment in simulation and print the side-by-side table
        [--jobs N]                    simulation processes at once (default: cores; 0 = in this process)
  help                                this text
`

/** The command line. Returns the exit status: 0 ok, 1 a run failed, 2 bad input. */
export async function main(
  argv: string[],
  out = (s: string) => process.stdout.write(s + '\n'),
  err = (s: string) => process.stderr.write(s + '\n'),
): Promise<number> {
  const [cmd, ...rest] = argv
  try {
    switch (cmd) {
      case 'list': {
        const { values } = parseArgs({
          args: rest,
          options: { json: { type: 'boolean' } },
          allowPositionals: false,
        })
        out(values.json ? JSON.stringify(catalogue(), null, 2) : listText())
        return 0
      }
      case 'run': {
        const { values, positionals } = parseArgs({
          args: rest,
          options: { json: { type: 'boolean' }, csv: { type: 'boolean' }, jobs: { type: 'string' } },
          allowPositionals: true,
        })
        if (positionals.length !== 1)
          throw new InputError([`run: expected one spec file, got ${positionals.length}`])
        if (values.json && values.csv) throw new InputError(['run: choose one of --json and --csv'])
        let jobs: number | undefined
        if (values.jobs !== undefined) {
          jobs = Number(values.jobs)
          if (!Number.isInteger(jobs) || jobs < 0)
            throw new InputError([`run: --jobs expects a whole number ≥ 0, got "${values.jobs}"`])
        }
        return await runCommand(
          positionals[0],
          { format: values.json ? 'json' : values.csv ? 'csv' : 'table', jobs },
          out,
          err,
        )
      }
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        out(USAGE)
        return cmd === undefined ? 2 : 0
      default:
        throw new InputError([`unknown command "${cmd}"; try: iosched-lab help`])
    }
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
    throw e
  }
}
