// Runs the production build (`electron-vite build`) into a fresh directory; needs no Electron binary.
import { execFile } from 'node:child_process'
import { mkdtemp } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'

const root = join(import.meta.dirname, '../..')
const pkg = createRequire(import.meta.url).resolve('electron-vite/package.json')
const cli = join(dirname(pkg), 'bin/electron-vite.js')

/** Build the app into a new temporary directory and return it (it holds main/, preload/, renderer/). */
export async function buildApp(): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'iosched-lab-build-'))
  await promisify(execFile)(process.execPath, [cli, 'build', '--outDir', outDir, '--logLevel', 'warn'], {
    cwd: root,
  })
  return outDir
}
