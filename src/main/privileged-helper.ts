// Root for real device tests in the desktop app, asked for once per session: when the app is not
// root, the first real-device call starts the privileged helper (the same program as `iosched-lab
// real-helper`) under pkexec — the app's own binary in its helper mode (helper-mode.ts), since the
// RunAsNode fuse is off — and keeps it until the app quits. pkexec shows the desktop's password dialog; a refusal only fails
// that call (the next one asks again). Closing the app ends the helper's input: it restores every
// device and exits.
import { spawn } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { helperCommand } from './helper-mode'
import { HelperBackend } from './services/real/helper-client'
import { labStateDir, scratchParentDir } from './services/real/state-dir'
import { userPresetDir } from './services/user-presets'

export const APP_ROOT_HINT =
  'start the app as root (sudo npm start), or let it ask for root with pkexec (once per session).'

/** How to start this app again: its binary, its folder, whether it is packaged (Electron's app). */
export interface AppLaunch {
  execPath: string
  appPath: string
  isPackaged: boolean
}

export function pkexecHelper(launch: AppLaunch): HelperBackend {
  // pkexec clears the environment: the helper is told where the user's journals and scratch files go
  const args = ['--state-dir', labStateDir(), '--scratch-dir', scratchParentDir()]
  return new HelperBackend(() => {
    // the user's folders exist before root writes in them (its journals), so they stay the user's
    mkdirSync(userPresetDir(), { recursive: true })
    return spawn('pkexec', helperCommand(launch, args), {
      stdio: ['pipe', 'pipe', 'pipe'],
    })
  })
}
