// Every temporary file of a test run goes into one folder of its own (TMPDIR, which os.tmpdir()
// and the tools the tests start read), removed when the run ends: no test leaves folders behind
// in /tmp, however it ends.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'iosched-test-run-'))
  // Like /tmp itself (sticky, everyone may create): the tests that run the CLI as another user
  // (runuser -u nobody) need to reach their folders in it and to make temporary files.
  chmodSync(dir, 0o1777)
  const before = process.env.TMPDIR
  process.env.TMPDIR = dir
  return () => {
    if (before === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = before
    rmSync(dir, { recursive: true, force: true })
  }
}
