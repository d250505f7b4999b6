// The desktop's save and open dialogs, with Electron stood in for: asked only by our page, the
// request checked, the chosen path (or null for cancel) answered.
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { FILE_DIALOG_CHANNELS } from '../../src/shared/api/file-dialogs'

const handlers = new Map<string, (event: unknown, input: unknown) => Promise<unknown>>()
const shown: { kind: string; options: Record<string, unknown> }[] = []
let answer: { canceled: boolean; filePath?: string; filePaths?: string[] } = { canceled: true }
const WIN = { id: 1 }
vi.mock('electron', () => ({
  ipcMain: {
    handle: (ch: string, fn: (event: unknown, input: unknown) => Promise<unknown>) => handlers.set(ch, fn),
  },
  BrowserWindow: { fromWebContents: () => WIN, getAllWindows: () => [] },
  dialog: {
    showSaveDialog: async (win: unknown, options: Record<string, unknown>) => {
      expect(win).toBe(WIN)
      shown.push({ kind: 'save', options })
      return answer
    },
    showOpenDialog: async (win: unknown, options: Record<string, unknown>) => {
      expect(win).toBe(WIN)
      shown.push({ kind: 'open', options })
      return answer
    },
  },
}))

const APP = 'file:///opt/lab/out/renderer/index.html'
const from = (url: string) => ({ senderFrame: { url, parent: null }, sender: {} })

describe('the desktop’s file dialogs', () => {
  beforeAll(async () => {
    const { registerFileDialogs } = await import('../../src/main/file-dialogs')
    registerFileDialogs(APP)
  })

  it('registers a channel for saving and one for opening a session', () => {
    expect([...handlers.keys()].sort()).toEqual(Object.values(FILE_DIALOG_CHANNELS).sort())
  })

  it('answers the path chosen to save to, with the session filters and the suggested name', async () => {
    answer = { canceled: false, filePath: '/home/me/disk-a.json' }
    const save = handlers.get(FILE_DIALOG_CHANNELS.saveSession)!
    await expect(save(from(APP), { defaultPath: 'disk-a.json' })).resolves.toBe('/home/me/disk-a.json')
    const { options } = shown.at(-1)!
    expect(options.defaultPath).toBe('disk-a.json')
    expect(options.filters).toEqual([
      { name: 'IOSched Lab sessions', extensions: ['json', 'gz'] },
      { name: 'All files', extensions: ['*'] },
    ])
    answer = { canceled: true, filePath: '' }
    await expect(save(from(APP), {})).resolves.toBeNull()
  })

  it('answers the file chosen to open, or null when cancelled', async () => {
    const open = handlers.get(FILE_DIALOG_CHANNELS.openSession)!
    answer = { canceled: false, filePaths: ['/mnt/mail/session.json.gz'] }
    await expect(open(from(APP), { title: 'Open' })).resolves.toBe('/mnt/mail/session.json.gz')
    expect(shown.at(-1)).toMatchObject({ kind: 'open', options: { title: 'Open', properties: ['openFile'] } })
    answer = { canceled: true, filePaths: [] }
    await expect(open(from(APP), undefined)).resolves.toBeNull()
  })

  it('refuses other pages and malformed requests, before showing anything', async () => {
    const save = handlers.get(FILE_DIALOG_CHANNELS.saveSession)!
    const before = shown.length
    await expect(save(from('https://evil.example/'), {})).rejects.toThrow(
      'refused IPC from https://evil.example/',
    )
    await expect(save(from(APP), { defaultPath: 7 })).rejects.toThrow(
      'dialog request: defaultPath must be a string',
    )
    await expect(save(from(APP), { properties: ['x'] })).rejects.toThrow(
      'dialog request: unknown key "properties"',
    )
    await expect(save(from(APP), [1])).rejects.toThrow('dialog request: expected an object')
    expect(shown.length).toBe(before)
  })
})
