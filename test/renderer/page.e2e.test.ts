// End to end: the built renderer in headless Chromium, served over http as a plain browser sees it
// (no preload, so the page takes the catalogue from the shared code directly).
import { existsSync } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { buildApp } from '../build/build-app'
import { serveStatic } from './static-server'
import type { StaticServer } from './static-server'

// CI installs it with `apt-get install -y chromium`; a missing browser fails the test, it never skips.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]
const RESULTS = join(import.meta.dirname, '../../test-results')

let out = ''
let server: StaticServer | undefined
let browser: Browser | undefined

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`)
  }
  out = await buildApp()
  server = await serveStatic(join(out, 'renderer'))
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  if (out) await rm(out, { recursive: true, force: true })
})

it('shows the catalogue without console errors', async () => {
  const page = await browser!.newPage({ viewport: { width: 1200, height: 900 } })
  const errors: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`))
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`)
  })

  await page.goto(server!.url)
  await expect(page.title()).resolves.toBe('IOSched Lab')
  const schedulers = page.locator('section', { has: page.locator('h2', { hasText: 'Schedulers' }) })
  await schedulers.locator('h3', { hasText: 'noop' }).waitFor()
  await expect(schedulers.locator('h3 code').allTextContents()).resolves.toEqual(
    expect.arrayContaining(['noop', 'deadline']),
  )
  await expect(schedulers.getByText('read_expire').count()).resolves.toBe(1)
  await expect(page.locator('dt code', { hasText: 'hdd-2003-ide' }).count()).resolves.toBe(1)

  await mkdir(RESULTS, { recursive: true })
  await page.screenshot({ path: join(RESULTS, 'renderer.png'), fullPage: true })
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.screenshot({ path: join(RESULTS, 'renderer-dark.png'), fullPage: true })
  expect(errors).toEqual([])
})
