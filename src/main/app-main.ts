// The desktop app's main process: one window, locked down, the lab service behind typed IPC, and
// simulations in utility processes (so a runaway simulation is killed, not the app). The built
// renderer is served at app://lab/ (app-scheme.ts); every webContents is guarded as it is created
// and the session grants no permission (contents-guard.ts).
import { app, BrowserWindow, session, utilityProcess } from 'electron'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { registerAppScheme, serveAppScheme } from './app-protocol'
import { APP_INDEX_URL } from './app-scheme'
import { denyPermissions, guardEveryContents } from './contents-guard'
import { registerFileDialogs } from './file-dialogs'
import { broadcast, registerLabIpc } from './ipc'
import { APP_ROOT_HINT, pkexecHelper } from './privileged-helper'
import { CONTENT_SECURITY_POLICY } from './security'
import { LabService } from './services/lab-service'
import { defaultLibraryFolder } from './services/sessions'
import { isRoot } from './services/real/prerequisites'
import { repairAtStart } from './services/real/startup-repair'
import { labStateDir } from './services/real/state-dir'
import { loadUserPresets } from './services/user-presets'
import { askBeforeDroppingWork, quitAfterDispose } from './unsaved-work'
import { utilitySpawner } from './utility-spawner'

const devUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined
const rendererDir = fileURLToPath(new URL('../renderer/', import.meta.url))
const appUrl = devUrl ?? APP_INDEX_URL
/** This app as pkexec starts it again, in its helper mode. */
const launch = { execPath: process.execPath, appPath: app.getAppPath(), isPackaged: app.isPackaged }

function createService(): LabService {
  // The device presets the user saved (fingerprints), as the CLI and `serve` load them at start.
  for (const p of loadUserPresets().problems) console.warn(`iosched-lab: ignoring device preset ${p}`)
  // Devices a crashed lab left switched are put back first (as root; otherwise listed as pending).
  const startupRepair = repairAtStart(labStateDir())
  void startupRepair.then((r) => {
    for (const a of r.actions) console.log(`iosched-lab: repaired after an earlier crash: ${a}`)
    for (const p of [...r.problems, ...r.pending]) console.warn(`iosched-lab: ${p}`)
  })
  const lab = new LabService({
    examplesDir: join(app.getAppPath(), 'examples'),
    libraryDir: defaultLibraryFolder(),
    appVersion: app.getVersion(),
    spawner: utilitySpawner((path) =>
      utilityProcess.fork(path, [], {
        stdio: ['ignore', 'ignore', 'pipe'],
        serviceName: 'iosched-lab simulation',
      }),
    ),
    workerPath: fileURLToPath(new URL('./workers/utility-simulate.js', import.meta.url)),
    // Real device tests: as root in this process, else through the pkexec helper (privileged-helper.ts).
    real: { startupRepair, backend: isRoot() ? undefined : pkexecHelper(launch), rootHint: APP_ROOT_HINT },
  })
  lab.on((event) => broadcast(event, appUrl))
  return lab
}

/** The CSP as a response header too (the dev server's http loads; app:// sends its own). */
function enforceCsp(): void {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    })
  })
}

function createWindow(): void {
  const win = new BrowserWindow({
    width: 1360,
    height: 900,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'IOSched Lab',
    autoHideMenuBar: true,
    webPreferences: {
      preload: fileURLToPath(new URL('../preload/index.cjs', import.meta.url)),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  })
  win.once('ready-to-show', () => win.show())
  // a reload or a close with unsaved work asks first
  askBeforeDroppingWork(win)
  void win.loadURL(appUrl)
}

/** The desktop app: called synchronously from the entry, before the app is ready. */
export function startApp(): void {
  // before ready: Electron takes privileged schemes only then; and before any webContents exists
  registerAppScheme()
  guardEveryContents(app, appUrl)
  void app.whenReady().then(() => {
    denyPermissions(session.defaultSession)
    enforceCsp()
    if (!devUrl) serveAppScheme(rendererDir)
    const lab = createService()
    registerLabIpc(lab, appUrl)
    registerFileDialogs(appUrl)
    // Quit only once the windows agreed (unsaved work) and every real run has put its device back
    // (and the privileged helper has gone).
    quitAfterDispose(app, () => lab.disposeAndWait())
    createWindow()
    // the simulation children start and compile their code while the window loads (at a lower
    // priority), not when Run is first pressed
    lab.warmUp()
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) createWindow()
    })
  })

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
}
