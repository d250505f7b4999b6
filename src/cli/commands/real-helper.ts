import { HELPER_USAGE, runRealHelper } from '../../main/services/real/helper-main'
import type { CliCommand } from '../command'

/** `iosched-lab real-helper`: what the desktop app starts once per session with pkexec. */
export const realHelperCommand: CliCommand = {
  name: 'real-helper',
  usage: [HELPER_USAGE],
  run: (args) => runRealHelper(args),
}
