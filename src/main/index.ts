// Electron main process entry: the desktop app (app-main.ts) or, when pkexec started the app's
// binary with HELPER_FLAG, the privileged helper for real devices (helper-mode.ts) — no window.
import { app } from 'electron'
import { startApp } from './app-main'
import { helperArgs } from './helper-mode'
import { runRealHelper } from './services/real/helper-main'

const helper = helperArgs(process.argv)
if (helper) void runRealHelper(helper).then((code) => app.exit(code))
else startApp()
