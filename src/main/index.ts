// Electron main process: one window, locked down, and the IPC glue to the shared lab code.
import { app, BrowserWindow, ipcMain, session } from 'electron'
import type { IpcMainInvokeEvent } from 'electron'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { catalogue } from '../shared/catalogue'
import { CONTENT_SECURITY_POLICY, isAppUrl } from './security'

const devUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined
const indexHtml = fileURLToPath(new URL('../renderer/index.html', import.meta.url))
const appUrl = devUrl ?? pathToFileURL(indexHtml).href

/** IPC is answered only for our own page in the top frame, never for a frame it might embed. */
function checkSender(event: IpcMainInvokeEvent): void {
  const frame = event.senderFrame
  if (!frame || frame.parent || !isAppUrl(frame.url, appUrl)) {
    throw new Error(`lab: refused IPC from ${frame?.url ?? 'a destroyed frame'}`)
  }
}

function registerIpc(): void {
  ipcMain.handle('lab:catalogue', (event) => {
    checkSender(event)
    return catalogue()
  })
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
    width: 1200,
    height: 800,
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
  if (devUrl) void win.loadURL(devUrl)
  else void win.loadFile(indexHtml)
}

void app.whenReady().then(() => {
  enforceCsp()
  registerIpc()
  createWindow()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow()
  })
})

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})
