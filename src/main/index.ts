// Electron main process: one window, locked down, the lab service behind typed IPC, and
// simulations in utility processes (so a runaway simulation is killed, not the app).
import { app, BrowserWindow, session, utilityProcess } from 'electron'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { registerFileDialogs } from './file-dialogs'
import { broadcast, registerLabIpc } from './ipc'
import { APP_ROOT_HINT, pkexecHelper } from './privileged-helper'
import { CONTENT_SECURITY_POLICY, isAppUrl } from './security'
import { LabService } from './services/lab-service'
import { defaultLibraryFolder } from './services/sessions'
import { isRoot } from './services/real/prerequisites'
import { repairAtStart } from './services/real/startup-repair'
import { labStateDir } from './services/real/state-dir'
import { askBeforeDroppingWork, quitAfterDispose } from './unsaved-work'
import { utilitySpawner } from './utility-spawner'

const devUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined
const indexHtml = fileURLToPath(new URL('../renderer/index.html', import.meta.url))
const appUrl = devUrl ?? pathToFileURL(indexHtml).href

function createService(): LabService {
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
    real: { startupRepair, backend: isRoot() ? undefined : pkexecHelper(), rootHint: APP_ROOT_HINT },
  })
  lab.on((event) => broadcast(event, appUrl))
  return lab
}

/** The CSP as a response header too (dev server, http loads); file:// loads rely on the meta tag. */
function enforceCsp(): void {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    })
  })
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false))
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
  win.webContents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, appUrl)) event.preventDefault()
  })
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }))
  // a reload or a close with unsaved work asks first
  askBeforeDroppingWork(win)
  if (devUrl) void win.loadURL(devUrl)
  else void win.loadFile(indexHtml)
}

void app.whenReady().then(() => {
  enforceCsp()
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
