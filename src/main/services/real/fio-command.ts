/** fio's command line for a lab run: json+ report to a file, ETA lines on stdout, extra options checked. */
export function fioArguments(o: {
  jobFile: string
  output: string
  readOnly: boolean
  extra?: readonly string[]
}): string[] {
  return [
    '--output-format=json+',
    `--output=${o.output}`,
    '--eta=always',
    '--eta-newline=1',
    '--eta-interval=500ms',
    ...(o.readOnly ? ['--readonly'] : []),
    ...(o.extra ?? []),
    o.jobFile,
  ]
}

/**
 * Options a user may not add with --fio-arg, and why: they would move the I/O to another target,
 * change the report the lab reads, or run commands.
 */
const DENIED: [RegExp, string][] = [
  [/^--(filename|directory|opendir|filename_format|unique_filename)\b/, 'the lab chooses the device'],
  [/^--(readonly|allow_mounted_write|allow_file_create)\b/, 'the lab sets write protection itself'],
  [
    /^--(output|output-format|eta|eta-newline|eta-interval|minimal|append-terse|terse-version)\b/,
    'the lab reads fio’s json+ report and ETA lines',
  ],
  [/^--(name|section)\b/, 'jobs come from the spec (a new --name job would run against fio’s default file)'],
  [
    /^--(client|server|remote-config|daemonize|trigger\w*)\b/,
    'client/server mode is `iosched-lab fio-client`',
  ],
  [
    /^--(exec_prerun|exec_postrun|exec_run|exitall_on_error|cmdhelp|showcmd|parse-only|version|help)\b/,
    'not for a measured run',
  ],
  [/^--ioscheduler\b/, 'the lab switches schedulers itself (and restores them)'],
  [/^--(write_\w+_log|per_job_logs|log_\w+)\b/, 'the lab samples its own time series'],
]

/** Problems with extra fio arguments (empty when all are acceptable). */
export function checkExtraFioArgs(args: readonly string[]): string[] {
  const out: string[] = []
  for (const a of args) {
    if (!/^--[a-z_][a-z0-9_-]*(=.*)?$/i.test(a)) {
      out.push(`--fio-arg "${a}": expected a fio option like --bs=4k or --status-interval=1`)
      continue
    }
    const d = DENIED.find(([re]) => re.test(a))
    if (d) out.push(`--fio-arg "${a}" is not allowed: ${d[1]}`)
  }
  return out
}

/** Quote arguments for display (`sudo` users copy the command from here). */
export function shellQuote(args: readonly string[]): string {
  return args.map((a) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ')
}
