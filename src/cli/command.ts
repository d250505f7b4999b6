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
