// The privileged helper as a mode of the app's binary (the RunAsNode fuse is off): the command
// pkexec runs, how the entry recognises it, and that the entry then runs the helper, no window.
import { describe, expect, it } from 'vitest'
import { HELPER_FLAG, HELPER_SWITCHES, helperArgs, helperCommand } from '../../src/main/helper-mode'

describe('the helper mode', () => {
  it('starts the packaged app by its binary alone, the unpacked one with its folder', () => {
    const args = ['--state-dir', '/home/u/.local/state/iosched-lab']
    expect(
      helperCommand(
        { execPath: '/opt/lab/iosched-lab', appPath: '/opt/lab/resources/app.asar', isPackaged: true },
        args,
      ),
    ).toEqual(['/opt/lab/iosched-lab', ...HELPER_SWITCHES, HELPER_FLAG, ...args])
    expect(helperCommand({ execPath: '/x/electron', appPath: '/src/lab', isPackaged: false }, args)).toEqual([
      '/x/electron',
      '/src/lab',
      ...HELPER_SWITCHES,
      HELPER_FLAG,
      ...args,
    ])
  })

  it('runs as root without a display or a sandbox', () => {
    expect(HELPER_SWITCHES).toEqual(expect.arrayContaining(['--no-sandbox', '--ozone-platform=headless']))
  })

  it('finds its own arguments after the flag, wherever Chromium put its switches', () => {
    const cmd = helperCommand({ execPath: '/x/electron', appPath: '/src/lab', isPackaged: false }, [
      '--scratch-dir',
      '/t',
    ])
    expect(helperArgs(cmd)).toEqual(['--scratch-dir', '/t'])
    expect(helperArgs(['/x/electron', '/src/lab'])).toBeNull()
    expect(helperArgs(['/opt/lab/iosched-lab', HELPER_FLAG])).toEqual([])
  })
})
