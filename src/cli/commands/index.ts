import type { CliCommand } from '../command'
import { listCommand } from './list'
import { runCli } from './run'
import { devicesCommand } from './devices'
import { doctorCommand } from './doctor'
import { serveCommand } from './serve'

/** Every command: one file each, one line here. */
export const commands: readonly CliCommand[] = [
  listCommand,
  runCli,
  serveCommand,
  devicesCommand,
  doctorCommand,
]
