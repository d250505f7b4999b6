// The privileged helper as a mode of the app's own binary. With the RunAsNode fuse off (the
// Electron security checklist), Electron's binary can no longer be started as plain Node, so
// pkexec starts the app itself with HELPER_FLAG: its main process then runs the helper (the same
// program as `iosched-lab real-helper`) and opens no window. No Electron import here: the command
// line is data, tested without Electron.

/** The argument that turns the app's main process into the privileged helper. */
export const HELPER_FLAG = '--iosched-lab-real-helper'

/**
 * Chromium switches for a main process that opens no window, as root, with pkexec's empty
 * environment: no sandbox (Chromium refuses root with one; the helper loads no web content), no
 * display (pkexec drops DISPLAY and WAYLAND_DISPLAY), no GPU process.
 */
export const HELPER_SWITCHES = ['--no-sandbox', '--ozone-platform=headless', '--disable-gpu']

/** The helper's own arguments when the app was started as the helper, else null. */
export function helperArgs(argv: readonly string[]): string[] | null {
  const i = argv.indexOf(HELPER_FLAG)
  return i < 0 ? null : argv.slice(i + 1)
}

/**
 * The pkexec command line that starts the app as the helper: the app's binary, the app's folder
 * when it is not packaged (`electron .`), the switches, the flag, then the helper's arguments.
 */
export function helperCommand(
  app: { execPath: string; appPath: string; isPackaged: boolean },
  args: readonly string[],
): string[] {
  return [app.execPath, ...(app.isPackaged ? [] : [app.appPath]), ...HELPER_SWITCHES, HELPER_FLAG, ...args]
}
