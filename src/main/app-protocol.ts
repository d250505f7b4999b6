// Electron glue of the app:// scheme (app-scheme.ts): registered as privileged before the app is
// ready (Electron allows it only then, and only once), served once it is.
import { protocol } from 'electron'
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, appSchemeHandler } from './app-scheme'

/** Call before app.whenReady(). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { ...APP_SCHEME_PRIVILEGES } }])
}

/** Serve the built renderer at app://lab/ (the default session's protocol). */
export function serveAppScheme(rendererDir: string): void {
  protocol.handle(APP_SCHEME, appSchemeHandler(rendererDir))
}
