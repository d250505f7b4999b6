// The desktop app's side of unsaved work, with Electron stood in for: a page holding its unload
// makes the window ask, and the reload or close goes ahead only on "Leave without saving"; the
// app quits only after its windows closed and the lab was disposed.
import { EventEmitter } from 'node:events'
import { describe, expect, it, vi } from 'vitest'

let answer = 1
const asked: unknown[] = []
vi.mock('electron', () => ({
  dialog: {
    showMessageBoxSync: (win: unknown, options: unknown) => {
      asked.push({ win, options })
      return answer
    },
  },
}))

const { askBeforeDroppingWork, quitAfterDispose, UNSAVED_QUESTION, LEAVE } =
  await import('../../src/main/unsaved-work')

/** A window whose page held an unload: the event Electron sends, and whether it was prevented. */
function holdUnload(win: { webContents: EventEmitter }): boolean {
  let prevented = false
  win.webContents.emit('will-prevent-unload', { preventDefault: () => (prevented = true) })
  return prevented
}

describe('unsaved work in the desktop app', () => {
  it('asks in the window, and lets the page go only on "Leave without saving"', () => {
    const win = { webContents: new EventEmitter() }
    askBeforeDroppingWork(win as never)
    answer = 1 // Stay (also Esc: the cancel button)
    expect(holdUnload(win)).toBe(false)
    expect(asked.at(-1)).toEqual({ win, options: UNSAVED_QUESTION })
    answer = LEAVE
    expect(holdUnload(win)).toBe(true)
    expect(UNSAVED_QUESTION.buttons?.[LEAVE]).toBe('Leave without saving')
    expect(UNSAVED_QUESTION.cancelId).not.toBe(LEAVE)
    expect(UNSAVED_QUESTION.defaultId).not.toBe(LEAVE)
  })

  it('quits once the windows closed and the lab is disposed, not before', async () => {
    const app = Object.assign(new EventEmitter(), { quit: vi.fn() })
    let done: () => void = () => undefined
    const dispose = vi.fn(() => new Promise<void>((r) => (done = r)))
    quitAfterDispose(app as never, dispose)
    // (a quit the windows refuse never gets to will-quit: nothing is disposed)
    expect(dispose).not.toHaveBeenCalled()
    const first = { preventDefault: vi.fn() }
    app.emit('will-quit', first)
    expect(first.preventDefault).toHaveBeenCalled()
    expect(dispose).toHaveBeenCalledTimes(1)
    expect(app.quit).not.toHaveBeenCalled()
    done()
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1))
    const second = { preventDefault: vi.fn() }
    app.emit('will-quit', second)
    expect(second.preventDefault).not.toHaveBeenCalled()
    expect(dispose).toHaveBeenCalledTimes(1)
  })
})
