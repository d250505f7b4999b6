// bin/iosched-lab.mjs runs the build (out/main/cli.js) unless, in a checkout, the CLI's sources
// changed after it — then the sources, through tsx: never a stale build. Checked on a stand-in
// package whose two entries only say which one ran.
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../..')
const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

const entry = (says: string): string =>
  `export async function main(argv) { process.stdout.write('${says} ' + argv.join(' ') + '\\n'); return 0 }\n`

/** A package with the real bin, sources and a build, every file dated `at` (seconds). */
function standIn(at = Date.now() / 1000 - 60): { dir: string; touch(file: string, t: number): void } {
  const dir = mkdtempSync(join(tmpdir(), 'iosched-bin-'))
  dirs.push(dir)
  const put = (file: string, text: string): void => {
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    writeFileSync(join(dir, file), text)
    utimesSync(join(dir, file), at, at)
  }
  mkdirSync(join(dir, 'bin'))
  copyFileSync(join(root, 'bin/iosched-lab.mjs'), join(dir, 'bin/iosched-lab.mjs'))
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  put('package.json', '{ "name": "iosched-lab", "type": "module" }\n')
  put('src/cli/main.ts', entry('sources'))
  put('src/main/services/a.ts', 'export const a = 1\n')
  put('src/shared/b.ts', 'export const b = 2\n')
  put('out/main/cli.js', entry('build'))
  for (const d of ['src/cli', 'src/main/services', 'src/main', 'src/shared', 'src'])
    utimesSync(join(dir, d), at, at)
  return { dir, touch: (file, t) => utimesSync(join(dir, file), t, t) }
}

function run(dir: string): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [join(dir, 'bin/iosched-lab.mjs'), 'list'], {
    cwd: tmpdir(),
    encoding: 'utf8',
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

describe('bin/iosched-lab.mjs', () => {
  it('runs the build when no CLI source is newer than it', () => {
    const { dir, touch } = standIn()
    touch('out/main/cli.js', Date.now() / 1000)
    expect(run(dir)).toMatchObject({ code: 0, out: 'build list\n' })
  })

  it('runs the sources when one of them changed after the build', () => {
    for (const changed of ['src/cli/main.ts', 'src/main/services/a.ts', 'src/shared/b.ts']) {
      const { dir, touch } = standIn()
      touch(changed, Date.now() / 1000)
      expect(run(dir), changed).toMatchObject({ code: 0, out: 'sources list\n' })
    }
  })

  it('with the build’s stamp, checks only the sources it lists, against when the build started', () => {
    const { dir, touch } = standIn()
    const builtFrom = Date.now() - 30_000
    const stamp = (sources: string[]) =>
      writeFileSync(join(dir, 'out/main/sources.json'), JSON.stringify({ builtFrom, sources }))
    stamp(['src/cli/main.ts', 'src/shared/b.ts'])
    // a file the build does not hold (nothing it holds imports it) changes nothing
    touch('src/main/services/a.ts', Date.now() / 1000)
    expect(run(dir)).toMatchObject({ code: 0, out: 'build list\n' })
    // a file it holds, changed after the build started (though before cli.js was written)
    touch('src/shared/b.ts', (builtFrom + 1000) / 1000)
    touch('out/main/cli.js', Date.now() / 1000)
    expect(run(dir)).toMatchObject({ code: 0, out: 'sources list\n' })
    touch('src/shared/b.ts', (builtFrom - 1000) / 1000)
    expect(run(dir)).toMatchObject({ code: 0, out: 'build list\n' })
    // a file it holds, gone
    stamp(['src/cli/main.ts', 'src/shared/gone.ts'])
    expect(run(dir)).toMatchObject({ code: 0, out: 'sources list\n' })
  })

  it('without a readable stamp, compares every CLI source with the build', () => {
    const { dir, touch } = standIn()
    writeFileSync(join(dir, 'out/main/sources.json'), '{ "sources": "not a list" }')
    touch('out/main/cli.js', Date.now() / 1000)
    expect(run(dir)).toMatchObject({ code: 0, out: 'build list\n' })
    touch('src/main/services/a.ts', Date.now() / 1000 + 5)
    expect(run(dir)).toMatchObject({ code: 0, out: 'sources list\n' })
  })

  it('runs the sources in a checkout with no build', () => {
    const { dir } = standIn()
    rmSync(join(dir, 'out'), { recursive: true })
    expect(run(dir)).toMatchObject({ code: 0, out: 'sources list\n' })
  })

  it('runs the build of an installed package, which has no sources', () => {
    const { dir } = standIn()
    rmSync(join(dir, 'src'), { recursive: true })
    expect(run(dir)).toMatchObject({ code: 0, out: 'build list\n' })
  })

  it('says what is missing when there is neither', () => {
    const { dir } = standIn()
    rmSync(join(dir, 'src'), { recursive: true })
    rmSync(join(dir, 'out'), { recursive: true })
    const r = run(dir)
    expect(r.code).toBe(70)
    expect(r.err).toContain(`no build in ${join(dir, 'out/main')}`)
  })
})
