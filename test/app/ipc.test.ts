// Main's IPC glue with Electron stood in for: every method registered, the sender checked, inputs
// validated with the shared schemas, errors returned as data.
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { LabApi } from '../../src/shared/api/contract'
import { LAB_METHODS } from '../../src/shared/api/methods'

const handlers = new Map<string, (event: unknown, input: unknown) => Promise<unknown>>()
const sent: unknown[][] = []
vi.mock('electron', () => ({
  ipcMain: {
    handle: (ch: string, fn: (event: unknown, input: unknown) => Promise<unknown>) => handlers.set(ch, fn),
  },
  BrowserWindow: {
    getAllWindows: () => [
      {
        webContents: { isDestroyed: () => false, getURL: () => APP, send: (...a: unknown[]) => sent.push(a) },
      },
      {
        webContents: {
          isDestroyed: () => false,
          getURL: () => 'https://evil.example/',
          send: () => sent.push(['evil']),
        },
      },
    ],
  },
}))

const APP = 'file:///opt/lab/out/renderer/index.html'
const from = (url: string, parent: unknown = null) => ({ senderFrame: { url, parent } })

const api = Object.fromEntries(
  LAB_METHODS.map((m) => [m, vi.fn(async (input: unknown) => ({ method: m, input }))]),
) as unknown as LabApi

describe('registerLabIpc', () => {
  beforeEach(async () => {
    handlers.clear()
    const { registerLabIpc } = await import('../../src/main/ipc')
    registerLabIpc(api, APP)
  })

  it('registers one channel per method, and only those', () => {
    expect([...handlers.keys()].sort()).toEqual(LAB_METHODS.map((m) => `lab:${m}`).sort())
  })

  it('answers our page, with the validated input', async () => {
    const r = await handlers.get('lab:cancelRun')!(from(APP + '#/results'), { runId: 'x' })
    expect(r).toEqual({ value: { method: 'cancelRun', input: { runId: 'x' } } })
  })

  it('refuses another page and a sub-frame of ours', async () => {
    await expect(handlers.get('lab:catalogue')!(from('https://evil.example/'), undefined)).rejects.toThrow(
      /refused IPC/,
    )
    await expect(handlers.get('lab:catalogue')!(from(APP, {}), undefined)).rejects.toThrow(/refused IPC/)
  })

  it('returns bad input as an error with its issues', async () => {
    const r = await handlers.get('lab:openSession')!(from(APP), { path: 7 })
    expect(r).toMatchObject({ error: { kind: 'bad-input', issues: [{ path: 'path' }] } })
  })

  it('broadcasts events only to windows showing our page', async () => {
    const { broadcast } = await import('../../src/main/ipc')
    sent.length = 0
    broadcast({ type: 'run:failed', runId: 'r', cancelled: true, message: 'cancelled' }, APP)
    expect(sent).toEqual([
      ['lab:event', { type: 'run:failed', runId: 'r', cancelled: true, message: 'cancelled' }],
    ])
  })
})
