// The desktop's own file dialogs, which only the Electron app has: the page asks for a path to
// save a session to or to open one from, and gets the path the user chose (null: cancelled).
// Outside Electron the page types paths instead (the browser host's files are on its machine).

/** What the page may ask of a save or open dialog; every field checked in main before use. */
export interface FileDialogRequest {
  title?: string
  /** Suggested file name or path. */
  defaultPath?: string
}

export interface FileDialogs {
  /** A path to save a session to, or null if the user cancelled. */
  saveSession(request: FileDialogRequest): Promise<string | null>
  /** A session file to open, or null if the user cancelled. */
  openSession(request: FileDialogRequest): Promise<string | null>
  /** A directory (a real run's test file goes there), or null if the user cancelled. */
  chooseDirectory(request: FileDialogRequest): Promise<string | null>
}

export const FILE_DIALOG_CHANNELS = {
  saveSession: 'dialog:save-session',
  openSession: 'dialog:open-session',
  chooseDirectory: 'dialog:choose-directory',
} as const satisfies Record<keyof FileDialogs, string>

/** Session files: JSON, gzip-compressed JSON. */
export const SESSION_FILE_FILTERS = [
  { name: 'IOSched Lab sessions', extensions: ['json', 'gz'] },
  { name: 'All files', extensions: ['*'] },
]

/** The request, checked: strings of sane length, nothing else. Throws a message saying what is wrong. */
export function checkDialogRequest(input: unknown): FileDialogRequest {
  const o = (input ?? {}) as Record<string, unknown>
  if (typeof o !== 'object' || Array.isArray(o)) throw new Error('dialog request: expected an object')
  const out: FileDialogRequest = {}
  for (const [k, v] of Object.entries(o)) {
    if (k !== 'title' && k !== 'defaultPath') throw new Error(`dialog request: unknown key "${k}"`)
    if (typeof v !== 'string' || v.length > 4096) throw new Error(`dialog request: ${k} must be a string`)
    out[k] = v
  }
  return out
}
