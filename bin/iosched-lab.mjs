#!/usr/bin/env node
// The iosched-lab command. It runs the build (out/main/cli.js and its simulation worker, from
// `npm run build`, which `npm ci` and `npm install` run as `prepare`; an installed package ships
// it). In a checkout whose CLI sources changed after that build, or that has none, it runs those
// sources through tsx instead: never a stale build. From any working directory either way.
//
// Which sources: the build's stamp (out/main/sources.json) lists every source file of the main
// build and when the build started; the build is current while each of them is there and not
// modified since — one stat per file. (A file the build does not hold cannot change what it runs
// without a file it holds changing, to import it.) Without a stamp (a build older than it), every
// file under src/cli, src/main and src/shared is compared with cli.js, as before.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const built = join(root, 'out/main/cli.js')
const stampFile = join(root, 'out/main/sources.json')

/** The latest modification of any file under `dir` (ms), 0 when there is no such folder. */
function newest(dir) {
  if (!existsSync(dir)) return 0
  let t = statSync(dir).mtimeMs
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true }))
    t = Math.max(t, statSync(join(e.parentPath ?? e.path, e.name)).mtimeMs)
  return t
}

/** The stamp's verdict: true or false, or null when there is no readable stamp. */
function stampSaysCurrent() {
  let stamp
  try {
    stamp = JSON.parse(readFileSync(stampFile, 'utf8'))
  } catch {
    return null
  }
  if (!Number.isFinite(stamp?.builtFrom) || !Array.isArray(stamp.sources)) return null
  // root ends with a separator: concatenation costs a tenth of path.join over ~450 files
  for (const f of stamp.sources) {
    const s = statSync(root + f, { throwIfNoEntry: false })
    if (!s || s.mtimeMs > stamp.builtFrom) return false
  }
  return true
}

function buildIsCurrent() {
  if (!existsSync(built)) return false
  // an installed package: the build is all there is
  if (!existsSync(join(root, 'src'))) return true
  const stamped = stampSaysCurrent()
  if (stamped !== null) return stamped
  const at = statSync(built).mtimeMs
  return ['src/cli', 'src/main', 'src/shared'].every((d) => newest(join(root, d)) <= at)
}

async function loadMain() {
  if (buildIsCurrent()) return (await import(pathToFileURL(built).href)).main
  if (!existsSync(join(root, 'src/cli/main.ts')))
    throw new Error(`no build in ${join(root, 'out/main')} (reinstall the package, or run npm run build)`)
  const { register } = await import('tsx/esm/api')
  register()
  return (await import('../src/cli/main.ts')).main
}

// `iosched-lab list | head -3`: when the reader of the output goes away, stop quietly, as a
// command killed by SIGPIPE does (Node ignores SIGPIPE and makes the failed write an 'error'
// event, which unhandled is a crash with a stack trace). Status 0: the reader chose to stop.
// A closed stderr is ignored likewise (there is nowhere left to say anything).
process.stdout.on('error', (e) => {
  if (e.code !== 'EPIPE') throw e
  process.exit(0)
})
process.stderr.on('error', (e) => {
  if (e.code !== 'EPIPE') throw e
})

try {
  const main = await loadMain()
  process.exitCode = await main(process.argv.slice(2))
} catch (e) {
  process.stderr.write(
    `iosched-lab: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
  )
  process.exitCode = 70
}
