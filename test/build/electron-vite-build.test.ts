import { fork, spawn } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONTENT_SECURITY_POLICY } from '../../src/main/security'
import { buildApp } from './build-app'

let out = ''

beforeAll(async () => {
  out = await buildApp()
}, 120_000)

afterAll(async () => {
  if (out) await rm(out, { recursive: true, force: true })
})

describe('electron-vite build', () => {
  it('emits main, the command line, the simulation worker, preload and renderer', () => {
    for (const f of [
      'main/index.js',
      'main/cli.js',
      'main/workers/simulate.js',
      'preload/index.cjs',
      'renderer/index.html',
    ]) {
      expect(existsSync(join(out, f)), f).toBe(true)
    }
  })

  it('stamps the main build with when it started and every source it holds (bin/ checks them)', async () => {
    const stamp = JSON.parse(await readFile(join(out, 'main/sources.json'), 'utf8'))
    expect(stamp.builtFrom).toBeLessThanOrEqual(statSync(join(out, 'main/cli.js')).mtimeMs)
    expect(stamp.sources).toEqual(
      expect.arrayContaining(['src/cli/main.ts', 'src/cli/commands/list.ts', 'src/main/workers/simulate.ts']),
    )
    expect(stamp.sources.every((f: string) => /^src\/(cli|main|shared)\//.test(f))).toBe(true)
  })

  it('loads a command only when it runs: the command line starts without zod or the run pool', async () => {
    // the modules cli.js imports statically, and theirs: what every command start loads
    const seen = new Set<string>()
    const visit = async (file: string): Promise<void> => {
      if (seen.has(file)) return
      seen.add(file)
      const text = await readFile(file, 'utf8')
      for (const m of text.matchAll(/^import (?:.*? from )?"([^"]+)";$/gm))
        if (m[1].startsWith('.')) await visit(join(dirname(file), m[1]))
        else seen.add(m[1])
    }
    await visit(join(out, 'main/cli.js'))
    expect(seen).not.toContain('zod')
    expect([...seen].filter((f) => /\/(run-pool|list|run|serve)-[\w-]+\.js$/.test(f))).toEqual([])
  })

  it('builds main as an ES module, whose import.meta.url paths all exist in the output', async () => {
    const main = await readFile(join(out, 'main/index.js'), 'utf8')
    expect(main).toMatch(/^import .* from "electron";$/m)
    const rel = [...main.matchAll(/new URL\("([^"]+)", import\.meta\.url\)/g)].map((m) => m[1])
    expect(rel).toEqual(expect.arrayContaining(['../preload/index.cjs', '../renderer/']))
    const base = pathToFileURL(join(out, 'main/index.js'))
    for (const r of rel) expect(existsSync(fileURLToPath(new URL(r, base))), r).toBe(true)
  })

  it('builds the sandboxed preload as CommonJS that requires only electron', async () => {
    const preload = await readFile(join(out, 'preload/index.cjs'), 'utf8')
    expect(preload).not.toMatch(/^\s*(import|export)\s/m)
    expect([...preload.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1])).toEqual(['electron'])
  })

  it('carries the Content-Security-Policy in the renderer page, the same as main sends', async () => {
    const html = await readFile(join(out, 'renderer/index.html'), 'utf8')
    const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)
    expect(meta?.[1]).toBe(CONTENT_SECURITY_POLICY)
    expect(html).toContain('<title>IOSched Lab</title>')
  })

  it('starts the bundled simulation worker under plain Node', async () => {
    const child = fork(join(out, 'main/workers/simulate.js'), [], {
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    })
    try {
      const first = await new Promise((resolve, reject) => {
        child.once('message', resolve)
        child.once('error', reject)
        child.once('exit', (code) => reject(new Error(`worker exited with code ${code}`)))
      })
      expect(first).toEqual({ type: 'ready' })
    } finally {
      child.kill()
    }
  })

  // the app's helper mode (helper-mode.ts) runs this same program inside Electron's main process
  it('starts the bundled privileged helper under plain Node: hello, then gone when its input ends', async () => {
    const state = await mkdtemp(join(tmpdir(), 'iosched-helper-build-'))
    // as in the packaged app, the dependencies (zod …) sit next to the build
    await symlink(join(import.meta.dirname, '../../node_modules'), join(out, 'node_modules'))
    // the built command line's main(), as bin/iosched-lab.mjs calls it
    const cli = JSON.stringify(pathToFileURL(join(out, 'main/cli.js')).href)
    const run = `const { main } = await import(${cli}); process.exitCode = await main(process.argv.slice(1))`
    const args = ['--input-type=module', '-e', run, 'real-helper', '--state-dir', state]
    const child = spawn(process.execPath, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    try {
      const line = await new Promise<string>((resolve, reject) => {
        child.stdout.once('data', (d: Buffer) => resolve(d.toString().split('\n')[0]))
        child.once('exit', (code) => reject(new Error(`helper exited with code ${code}`)))
      })
      expect(JSON.parse(line)).toMatchObject({ type: 'hello', protocol: 1, pid: child.pid, stateDir: state })
      const exit = new Promise((r) => child.once('exit', r))
      child.stdin.end()
      await expect(exit).resolves.toBe(0)
    } finally {
      child.kill()
      await rm(state, { recursive: true, force: true })
      await rm(join(out, 'node_modules'), { force: true })
    }
  })
})
