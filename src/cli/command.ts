/** One command of the command line: a name, its usage lines, and what it does. */
export interface CliCommand {
  readonly name: string
  /** Lines for `iosched-lab help`, e.g. `run SPEC.json [--json|--csv]   run an experiment …`. */
  readonly usage: readonly string[]
  /** Run with the arguments after the command name; returns the exit status. */
  run(args: string[], io: CliIo): Promise<number>
}

export interface CliIo {
  out(s: string): void
  err(s: string): void
}

/**
 * A command as the command line's registry holds it: its name, and its module loaded only when
 * it runs (or for `help`), so a command starts without every other command's dependencies.
 */
export interface CommandEntry {
  readonly name: string
  load(): Promise<CliCommand>
}
