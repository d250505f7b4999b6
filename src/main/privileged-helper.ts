// Root for real device tests in the desktop app, asked for once per session: when the app is not
// root, the first real-device call starts the privileged helper (the bundled real-helper.js, the
// same program as `iosched-lab real-helper`) under pkexec — Electron's own binary run as Node — and
// keeps it until the app quits. pkexec shows the desktop's password dialog; a refusal only fails
// that call (the next one asks again). Closing the app ends the helper's input: it restores every
// device and exits.
import { spawn } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { HelperBackend } from './services/real/helper-client'
import { labStateDir, scratchParentDir } from './services/real/state-dir'
import { userPresetDir } from './services/user-presets'

export const APP_ROOT_HINT =
  'start the app as root (sudo npm start), or let it ask for root with pkexec (once per session).'

export function pkexecHelper(): HelperBackend {
  const script = fileURLToPath(new URL('./real-helper.js', import.meta.url))
  // pkexec clears the environment: the helper is told where the user's journals and scratch files go
  const args = ['--state-dir', labStateDir(), '--scratch-dir', scratchParentDir()]
  return new HelperBackend(() => {
    // the user's folders exist before root writes in them (its journals), so they stay the user's
    mkdirSync(userPresetDir(), { recursive: true })
    return spawn('pkexec', ['/usr/bin/env', 'ELECTRON_RUN_AS_NODE=1', process.execPath, script, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
    })
  })
}
