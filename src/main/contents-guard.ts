// What every web page of the app may do, decided here and applied to each webContents as it is
// created (app 'web-contents-created': windows, and anything a page might open or embed): it may
// navigate or be redirected only within the app's own page (isAppUrl), opens no windows, attaches
// no <webview>, and is granted no permission (camera, notifications, clipboard reads, devices …).
// Typed by the shape of Electron's objects, without an electron import, so a test can drive them.
import { isAppUrl } from './security'

/** Electron's will-navigate / will-redirect event: its `url`, and preventDefault to stop it. */
export interface NavigationEvent {
  url: string
  preventDefault(): void
}

export interface GuardedContents {
  on(event: 'will-navigate', listener: (e: NavigationEvent) => void): unknown
  on(event: 'will-redirect', listener: (e: NavigationEvent) => void): unknown
  on(event: 'will-attach-webview', listener: (e: { preventDefault(): void }) => void): unknown
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void
}

export interface ContentsSource {
  on(event: 'web-contents-created', listener: (event: unknown, contents: GuardedContents) => void): unknown
}

export interface PermissionSession {
  setPermissionRequestHandler(
    handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void
  setPermissionCheckHandler(handler: (contents: unknown, permission: string) => boolean): void
  setDevicePermissionHandler(handler: (details: unknown) => boolean): void
}

/** Keep `contents` on the app's own page (`appUrl`: the app:// index, or the dev server). */
export function guardContents(contents: GuardedContents, appUrl: string): void {
  const stayHome = (e: NavigationEvent): void => {
    if (!isAppUrl(e.url, appUrl)) e.preventDefault()
  }
  contents.on('will-navigate', stayHome)
  contents.on('will-redirect', stayHome)
  contents.on('will-attach-webview', (e) => e.preventDefault())
  contents.setWindowOpenHandler(() => ({ action: 'deny' }))
}

/** Guard every webContents the app creates from now on (call before the first window). */
export function guardEveryContents(app: ContentsSource, appUrl: string): void {
  app.on('web-contents-created', (_event, contents) => guardContents(contents, appUrl))
}

/** Refuse every permission request and answer every permission check with no. */
export function denyPermissions(session: PermissionSession): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  session.setPermissionCheckHandler(() => false)
  session.setDevicePermissionHandler(() => false)
}
