// The main process's wiring, with Electron and the lab service stood in for: the app:// scheme is
// registered as privileged before the app is ready, every webContents is guarded as it is
// created, and once ready the session grants no permission, app:// serves the renderer and the
// window loads app://lab/index.html, sandboxed, not a file:// URL.
import { EventEmitter } from 'node:events'
import { beforeAll, describe, expect, it, vi } from 'vitest'

const h = vi.hoisted(() => {
  let ready: () => void = () => undefined
  return {
    readyPromise: new Promise<void>((r) => (ready = r)),
    ready: () => ready(),
    schemes: [] as unknown[],
    handled: new Map<string, (req: Request) => Promise<Response>>(),
    permissions: {} as Record<string, (...a: unknown[]) => unknown>,
    windows: [] as { options: Record<string, unknown>; loaded: string[]; files: string[] }[],
    appEvents: null as unknown as EventEmitter,
  }
})

vi.mock('electron', async () => {
  const { EventEmitter } = await import('node:events')
  const app = Object.assign(new EventEmitter(), {
    isPackaged: true,
    whenReady: () => h.readyPromise,
    getAppPath: () => '/opt/lab',
    getVersion: () => '0.0.0',
    quit: () => undefined,
  })
  h.appEvents = app
  class BrowserWindow {
    static getAllWindows = () => []
    webContents = Object.assign(new EventEmitter(), { setWindowOpenHandler: () => undefined })
    record: (typeof h.windows)[number]
    constructor(options: Record<string, unknown>) {
      this.record = { options, loaded: [], files: [] }
      h.windows.push(this.record)
    }
    once() {}
    show() {}
    loadURL(url: string) {
      this.record.loaded.push(url)
      return Promise.resolve()
    }
    loadFile(file: string) {
      this.record.files.push(file)
      return Promise.resolve()
    }
  }
  return {
    app,
    BrowserWindow,
    ipcMain: { handle: () => undefined },
    dialog: {},
    utilityProcess: { fork: () => undefined },
    protocol: {
      registerSchemesAsPrivileged: (s: unknown[]) => h.schemes.push(...s),
      handle: (scheme: string, fn: (req: Request) => Promise<Response>) => h.handled.set(scheme, fn),
    },
    session: {
      defaultSession: {
        webRequest: { onHeadersReceived: () => undefined },
        setPermissionRequestHandler: (f: never) => (h.permissions.request = f),
        setPermissionCheckHandler: (f: never) => (h.permissions.check = f),
        setDevicePermissionHandler: (f: never) => (h.permissions.device = f),
      },
    },
  }
})
vi.mock('../../src/main/services/lab-service', () => ({
  LabService: class {
    on = () => () => undefined
    warmUp = () => undefined
    disposeAndWait = async () => undefined
  },
}))
vi.mock('../../src/main/services/real/startup-repair', () => ({
  repairAtStart: async () => ({ root: false, actions: [], problems: [], pending: [] }),
}))
vi.mock('../../src/main/privileged-helper', () => ({ APP_ROOT_HINT: '', pkexecHelper: () => undefined }))

describe('the main process', () => {
  beforeAll(async () => {
    await import('../../src/main/index')
  })

  it('registers app:// as a standard, secure scheme before the app is ready', () => {
    expect(h.schemes).toEqual([
      { scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) },
    ])
    expect(h.handled.size).toBe(0)
    expect(h.windows).toHaveLength(0)
  })

  it('guards each webContents as it is created, from the start', () => {
    const contents = Object.assign(new EventEmitter(), { setWindowOpenHandler: vi.fn() })
    h.appEvents.emit('web-contents-created', {}, contents)
    expect(contents.listenerCount('will-navigate')).toBe(1)
    expect(contents.listenerCount('will-redirect')).toBe(1)
    expect(contents.setWindowOpenHandler).toHaveBeenCalled()
  })

  it('once ready: no permissions, app:// served, the window on app://lab/index.html', async () => {
    h.ready()
    await vi.waitFor(() => expect(h.windows).toHaveLength(1))
    const callback = vi.fn()
    h.permissions.request({}, 'media', callback, {})
    expect(callback).toHaveBeenCalledWith(false)
    expect(h.permissions.check(null, 'clipboard-read', 'app://lab', {})).toBe(false)
    expect(h.permissions.device({})).toBe(false)
    expect([...h.handled.keys()]).toEqual(['app'])
    const win = h.windows[0]
    expect(win.loaded).toEqual(['app://lab/index.html'])
    expect(win.files).toEqual([])
    expect(win.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    })
  })
})
