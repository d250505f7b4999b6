// The guards every webContents gets and the session's permission handlers, driven with plain
// objects shaped like Electron's: an EventEmitter for the app and for each webContents.
import { EventEmitter } from 'node:events'
import { describe, expect, it, vi } from 'vitest'
import { denyPermissions, guardContents, guardEveryContents } from '../../src/main/contents-guard'
import type { NavigationEvent } from '../../src/main/contents-guard'

const APP = 'app://lab/index.html'

class FakeContents extends EventEmitter {
  openHandler?: (details: { url: string }) => { action: string }
  setWindowOpenHandler(h: (details: { url: string }) => { action: 'deny' }) {
    this.openHandler = h
  }
  /** Emit a navigation-like event; whether a listener stopped it. */
  tryGo(event: 'will-navigate' | 'will-redirect', url: string): boolean {
    const e: NavigationEvent = { url, preventDefault: vi.fn() }
    this.emit(event, e, url)
    return (e.preventDefault as ReturnType<typeof vi.fn>).mock.calls.length > 0
  }
}

describe('guardContents', () => {
  it('lets the page navigate and redirect within the app only', () => {
    const c = new FakeContents()
    guardContents(c, APP)
    for (const event of ['will-navigate', 'will-redirect'] as const) {
      expect(c.tryGo(event, 'app://lab/index.html#/results'), event).toBe(false)
      for (const url of [
        'https://evil.example/',
        'file:///etc/passwd',
        'app://evil/index.html',
        'other://lab/index.html',
        'javascript:alert(1)',
        'not a url',
      ])
        expect(c.tryGo(event, url), `${event} ${url}`).toBe(true)
    }
  })

  it('keeps the dev server page on its origin', () => {
    const c = new FakeContents()
    guardContents(c, 'http://localhost:5173/')
    expect(c.tryGo('will-navigate', 'http://localhost:5173/#/x')).toBe(false)
    expect(c.tryGo('will-redirect', 'http://localhost:5174/')).toBe(true)
  })

  it('opens no window and attaches no webview', () => {
    const c = new FakeContents()
    guardContents(c, APP)
    expect(c.openHandler?.({ url: APP })).toEqual({ action: 'deny' })
    expect(c.openHandler?.({ url: 'https://example.org/' })).toEqual({ action: 'deny' })
    const attach = { preventDefault: vi.fn() }
    c.emit('will-attach-webview', attach, {}, {})
    expect(attach.preventDefault).toHaveBeenCalled()
  })
})

describe('guardEveryContents', () => {
  it('guards each webContents as the app creates it', () => {
    const app = new EventEmitter()
    guardEveryContents(app, APP)
    const contents = [new FakeContents(), new FakeContents()]
    for (const c of contents) app.emit('web-contents-created', {}, c)
    for (const c of contents) {
      expect(c.tryGo('will-navigate', 'https://evil.example/')).toBe(true)
      expect(c.openHandler).toBeDefined()
    }
  })
})

describe('denyPermissions', () => {
  it('refuses every request and answers every check and device with no', () => {
    const handlers: Record<string, (...a: unknown[]) => unknown> = {}
    denyPermissions({
      setPermissionRequestHandler: (h) => void (handlers.request = h as never),
      setPermissionCheckHandler: (h) => void (handlers.check = h as never),
      setDevicePermissionHandler: (h) => void (handlers.device = h as never),
    })
    for (const permission of ['media', 'notifications', 'clipboard-read', 'geolocation', 'openExternal']) {
      const callback = vi.fn()
      handlers.request({}, permission, callback, {})
      expect(callback).toHaveBeenCalledWith(false)
      expect(handlers.check(null, permission, 'app://lab', {})).toBe(false)
    }
    expect(handlers.device({ deviceType: 'usb', origin: 'app://lab' })).toBe(false)
  })
})
