// The main process entry started as the privileged helper (pkexec … --iosched-lab-real-helper):
// it runs the helper with its arguments, exits with its status, and starts no desktop app.
import { afterAll, describe, expect, it, vi } from 'vitest'

const h = vi.hoisted(() => ({ helperArgs: null as string[] | null, exited: -1, appStarted: false }))

vi.mock('electron', () => ({ app: { exit: (code: number) => (h.exited = code) } }))
vi.mock('../../src/main/app-main', () => ({ startApp: () => (h.appStarted = true) }))
vi.mock('../../src/main/services/real/helper-main', () => ({
  runRealHelper: async (args: string[]) => {
    h.helperArgs = args
    return 3
  },
}))

const argv = process.argv
afterAll(() => {
  process.argv = argv
})

describe('the main entry as the helper', () => {
  it('runs the helper and exits with its status, without the app', async () => {
    process.argv = ['/opt/lab/iosched-lab', '--no-sandbox', '--iosched-lab-real-helper', '--state-dir', '/s']
    await import('../../src/main/index')
    await vi.waitFor(() => expect(h.exited).toBe(3))
    expect(h.helperArgs).toEqual(['--state-dir', '/s'])
    expect(h.appStarted).toBe(false)
  })
})
