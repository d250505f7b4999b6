import { fork } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
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
  it('emits main, the simulation worker, preload and renderer', () => {
    for (const f of [
      'main/index.js',
      'main/workers/simulate.js',
      'preload/index.cjs',
      'renderer/index.html',
    ]) {
      expect(existsSync(join(out, f)), f).toBe(true)
    }
  })

  it('builds main as an ES module, whose import.meta.url paths all exist in the output', async () => {
    const main = await readFile(join(out, 'main/index.js'), 'utf8')
    expect(main).toMatch(/^import .* from "electron";$/m)
    const rel = [...main.matchAll(/new URL\("([^"]+)", import\.meta\.url\)/g)].map((m) => m[1])
    expect(rel).toEqual(expect.arrayContaining(['../preload/index.cjs', '../renderer/index.html']))
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
})
