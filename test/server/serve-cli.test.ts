// `iosched-lab serve` as a user starts it: it prints the URL, answers with the token, 401 without.
import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { tempDir } from '../api/fixtures'

const bin = join(import.meta.dirname, '../../bin/iosched-lab.mjs')

it('prints a URL with the token and serves the lab until interrupted', async () => {
  const dir = tempDir()
  mkdirSync(join(dir, 'renderer'))
  writeFileSync(join(dir, 'renderer', 'index.html'), '<title>IOSched Lab</title>')
  const child = spawn(
    process.execPath,
    [bin, 'serve', '--renderer', join(dir, 'renderer'), '--library', join(dir, 'lib')],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let out = ''
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d
      const m = /http:\/\/127\.0\.0\.1:\d+\/\?token=\w+/.exec(out)
      if (m) resolve(m[0])
    })
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)))
  })
  expect(out).toContain(join(dir, 'lib'))
  const first = await fetch(url, { redirect: 'manual' })
  expect(first.status).toBe(303)
  const cookie = first.headers.get('set-cookie')!.split(';')[0]
  const page = await fetch(url.replace(/\?token=.*/, ''), { headers: { Cookie: cookie } })
  expect(page.status).toBe(200)
  expect(await page.text()).toContain('IOSched Lab')
  expect((await fetch(url.replace(/\?token=.*/, ''))).status).toBe(401)
  const lib = await fetch(url.replace(/\?token=(.*)/, 'api/library'), {
    method: 'POST',
    headers: { Authorization: `Bearer ${new URL(url).searchParams.get('token')}` },
  })
  expect(await lib.json()).toEqual({ value: { folder: join(dir, 'lib') } })
  const code = await new Promise((resolve) => {
    child.on('exit', resolve)
    child.kill('SIGINT')
  })
  expect(code).toBe(0)
}, 60_000)

it('says how to build when there is no renderer', async () => {
  const child = spawn(process.execPath, [bin, 'serve', '--renderer', tempDir()], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let err = ''
  child.stderr.on('data', (d) => (err += d))
  const code = await new Promise((resolve) => child.on('exit', resolve))
  expect(code).toBe(2)
  expect(err).toContain('npm run build')
}, 60_000)
