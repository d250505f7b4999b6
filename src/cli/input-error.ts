// A problem with the user's input, in a file of its own: the command line's entry catches it
// without loading the spec validation (and zod) that spec-file.ts brings, so `list` and `help`
// start without them.

/** A problem with the user's input: printed as one line per problem, exit status 2. */
export class InputError extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('\n'))
  }
}
