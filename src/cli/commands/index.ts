import type { CliCommand } from '../command'
import { listCommand } from './list'
import { runCli } from './run'

/** Every command: one file each, one line here. */
export const commands: readonly CliCommand[] = [listCommand, runCli]
