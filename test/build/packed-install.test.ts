// The lab as a package: `npm pack` of the checkout's files (as a fresh clone has them: `prepare`
// builds out/), installed with `npm install -g --prefix` into a temporary prefix, and run from
// another directory — the built CLI and its built simulation worker, with only the package's
// dependencies installed (no tsx: that is a devDependency).
import { execFile, spawn } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { quickSpec } from '../api/fixtures'

const root = join(import.meta.dirname, '../..')
const sh = promisify(execFile)
const npm = (args: string[], cwd: string) => sh('npm', args, { cwd, maxBuffer: 1 << 26 })

let tmp = ''
let packed: string[] = []
let prefix = ''
let installed = ''
let elsewhere = ''

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'iosched-pack-'))
  // the checkout's files, tracked or new (not ignored), as a clone of this tree would have them
  const clone = join(tmp, 'clone')
  const { stdout } = await sh('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: root })
  for (const f of stdout.split('\0').filter((f) => f && existsSync(join(root, f))))
    cpSync(join(root, f), join(clone, f), { recursive: true })
  symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'))
  const pack = await npm(['pack', '--json', '--pack-destination', tmp], clone)
  const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[]
  packed = info.files.map((f) => f.path)
  prefix = join(tmp, 'prefix')
  await npm(
    [
      'install',
      '-g',
      '--prefix',
      prefix,
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      join(tmp, info.filename),
    ],
    tmp,
  )
  installed = join(prefix, 'lib/node_modules/iosched-lab')
  elsewhere = join(tmp, 'elsewhere')
  mkdirSync(elsewhere)
  writeFileSync(join(elsewhere, 'quick.json'), JSON.stringify(quickSpec))
}, 300_000)

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true })
})

/** A module's static imports (`import … from "x"`, `export … from "x"`) and dynamic ones (`import("x")`). */
const IMPORTS = /^(?:import|export)\b[^;"]*?\bfrom\s*"([^"]+)"|\bimport\("([^"]+)"\)/gm

const lab = (args: string[]) =>
  sh(join(prefix, 'bin/iosched-lab'), args, { cwd: elsewhere, maxBuffer: 1 << 26 })

describe('the packed package, installed', () => {
  it('ships the built CLI, its worker, the renderer and the data it reads — no sources or tests', () => {
    for (const f of [
      'bin/iosched-lab.mjs',
      'out/main/cli.js',
      'out/main/workers/simulate.js',
      'out/renderer/index.html',
      'gallery/streaming-read-under-write-2003.json',
      'gallery/streaming-read-under-write-2003.md',
      'examples/streaming-read-under-write-2003.json',
      'package.json',
    ])
      expect(packed, f).toContain(f)
    expect(packed.filter((f) => /^(src|test|bench)\//.test(f))).toEqual([])
  })

  it('imports at run time only what its dependencies install', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>
    }
    const bare = new Set<string>()
    const scan = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name)
        if (e.isDirectory()) scan(p)
        else if (p.endsWith('.js') || p.endsWith('.mjs'))
          for (const m of readFileSync(p, 'utf8').matchAll(IMPORTS)) {
            const name = m[1] ?? m[2]
            if (!name.startsWith('.') && !name.startsWith('node:')) bare.add(name.split('/')[0])
          }
      }
    }
    scan(join(installed, 'out/main'))
    expect([...bare]).toEqual(expect.arrayContaining(['zod', 'ws']))
    bare.delete('electron') // the desktop app's main (out/main/index.js) only; the CLI never loads it
    expect([...bare].filter((m) => !(m in pkg.dependencies))).toEqual([])
    expect(existsSync(join(installed, 'node_modules/tsx'))).toBe(false)
  })

  it('runs a spec from another directory, with every scheduler simulated', async () => {
    const { stdout, stderr } = await lab(['run', 'quick.json', '--json'])
    expect(stderr).not.toContain('run failed')
    const doc = JSON.parse(stdout) as { schedulers: { label: string }[] }
    expect(doc.schedulers.map((s) => s.label)).toEqual(['noop', 'deadline-fb4'])
  }, 60_000)

  it('lists the gallery and shows an entry’s page, read from the package', async () => {
    const { stdout } = await lab(['gallery'])
    expect(stdout).toContain('streaming-read-under-write-2003')
    const page = await lab(['gallery', 'textbook-disk-scheduling'])
    expect(page.stdout.length).toBeGreaterThan(200)
  }, 60_000)

  it('serves the built renderer from the package', async () => {
    const serve = spawn(join(prefix, 'bin/iosched-lab'), ['serve', '--library', join(tmp, 'lib')], {
      cwd: elsewhere,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    try {
      let out = ''
      const url = await new Promise<string>((resolve, reject) => {
        serve.stdout.on('data', (d) => {
          out += d
          const m = /http:\/\/127\.0\.0\.1:\d+\/\?token=\w+/.exec(out)
          if (m) resolve(m[0])
        })
        serve.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)))
      })
      const first = await fetch(url, { redirect: 'manual' })
      const cookie = first.headers.get('set-cookie')!.split(';')[0]
      const page = await fetch(new URL('/', url), { headers: { Cookie: cookie } })
      expect(page.status).toBe(200)
      expect(await page.text()).toBe(readFileSync(join(installed, 'out/renderer/index.html'), 'utf8'))
      const code = new Promise((r) => serve.on('exit', r))
      serve.kill('SIGINT')
      await expect(code).resolves.toBe(0)
    } finally {
      serve.kill('SIGKILL')
    }
  }, 60_000)
})
