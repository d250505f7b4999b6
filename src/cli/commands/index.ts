import type { CliCommand } from '../command'
import { listCommand } from './list'
import { runCli } from './run'
import { quickCommand } from './quick'
import { galleryCommand } from './gallery'
import { reproduceCommand } from './reproduce'
import { devicesCommand } from './devices'
import { doctorCommand } from './doctor'
import { fingerprintCommand } from './fingerprint'
import { serveCommand } from './serve'
import { importCommand } from './import'
import { reportCommand } from './report'
import { sessionsCommand } from './sessions'
import { realHelperCommand } from './real-helper'
import { validateCommand } from './validate'
import { sweepCommand } from './sweep'
import { mergeCommand } from './merge'

/** Every command: one file each, one line here. */
export const commands: readonly CliCommand[] = [
  listCommand,
  runCli,
  quickCommand,
  sweepCommand,
  mergeCommand,
  serveCommand,
  devicesCommand,
  doctorCommand,
  fingerprintCommand,
  validateCommand,
  galleryCommand,
  reproduceCommand,
  importCommand,
  reportCommand,
  sessionsCommand,
  realHelperCommand,
]
