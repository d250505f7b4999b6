// End to end: the built renderer in headless Chromium through the browser host, as a person uses
// it — gallery, setup, a comparison with its table and charts, save and reopen after a reload,
// cancel, a clear error for an invalid field, a sweep. Screenshots go to test-results/.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumAvailable, launchChromium, RESULTS } from './browser'
import { idle as idleOf } from './page-waits'
import { startLabHost } from './lab-host'
import type { LabHost } from './lab-host'

const FLAGSHIP = 'gallery/streaming-read-under-write-2003/main'
const quickSpec = {
  name: 'quick-ssd',
  device: { preset: 'ssd-sata-mlc' },
  workload: {
    processes: [{ name: 'rr', type: 'random-read', params: { size: '64M', count: 200, direct: true } }],
  },
  schedulers: ['noop', 'deadline'],
}

describe.runIf(chromiumAvailable())('the lab in Chromium, through the browser host', () => {
  let host: LabHost
  let browser: Browser
  let page: Page
  let labels: string[] = []
  const errors: string[] = []
  // The status line sticks to the window's bottom; in a full-page picture it belongs at the end.
  const shot = async (name: string) => {
    await page.addStyleTag({ content: 'footer { position: static !important }' })
    await page.screenshot({ path: join(RESULTS, `${name}.png`), fullPage: true })
  }
  const field = (path: string) => page.locator(`[data-path="${path}"]`)
  const idle = () => idleOf(page)

  beforeAll(async () => {
    ;[host, browser] = await Promise.all([startLabHost(), launchChromium()])
    await mkdir(RESULTS, { recursive: true })
    page = await browser.newPage({ viewport: { width: 1360, height: 900 }, acceptDownloads: true })
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    page.on('pageerror', (e) => errors.push(e.message))
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await host?.close()
  })

  it('refuses the page without the token', async () => {
    const other = await browser.newPage()
    const r = await other.goto(host.server.origin)
    expect(r?.status()).toBe(401)
    await other.close()
  })

  it('opens the gallery', async () => {
    await page.goto(host.server.url)
    expect(new URL(page.url()).search).toBe('') // the token left the address bar
    // the flagship's gallery entry: one card, its variant inside
    const card = page
      .getByTestId('gallery-entry')
      .filter({ has: page.getByRole('button', { name: `Open “${FLAGSHIP}”` }) })
    await card.waitFor()
    await expect(card.textContent()).resolves.toContain('LKML')
    await shot('1-start')
  })

  it('loads an experiment and changes a tunable', async () => {
    await page.getByRole('button', { name: `Open “${FLAGSHIP}”` }).click()
    await page.getByText('The spec is valid.').waitFor()
    labels = await page
      .locator('[data-scheduler]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-scheduler')!))
    expect(labels).toEqual(expect.arrayContaining(['noop', 'deadline']))
    const i = labels.indexOf('deadline')
    const fifo = field(`schedulers[${i}].tunables.fifo_batch`)
    await fifo.locator('input').fill('8')
    await page.getByText('The spec is valid.').waitFor()
    await expect(fifo.getAttribute('class')).resolves.toContain('changed')
    await shot('2-setup')
  })

  it('runs the comparison: a bar per scheduler, then the table and every chart', async () => {
    const t0 = Date.now()
    await page.keyboard.press('Control+Enter')
    await page.locator('.progress .row').first().waitFor()
    await expect(page.locator('.progress .row').count()).resolves.toBe(labels.length)
    for (const l of labels)
      await page.locator(`tr[data-label="${l}"] td.num`).first().waitFor({ timeout: 150_000 })
    await page.getByText(/Done in/).waitFor({ timeout: 30_000 })
    console.log(`flagship: table complete ${((Date.now() - t0) / 1000).toFixed(1)} s after Run`)
    await expect(page.locator('td.best').count()).resolves.toBeGreaterThan(0)
    // the charts draw in idle time after the table, one after another
    const charts = ['throughput', 'latency-cdf', 'process-throughput', ...labels.map((l) => `sectors-${l}`)]
    for (const c of charts) {
      const card = page.locator(`[data-chart="${c}"]`)
      await expect(card.locator('canvas').count(), c).resolves.toBe(1)
      await card.locator('.waiting').waitFor({ state: 'detached', timeout: 10_000 })
    }
    // changes from a baseline row, written as the library's compare writes them (people-numbers
    // change): a percentage with its sign, a factor beyond twice the baseline; not ratios (×0.047)
    await page.getByLabel('Baseline scheduler').selectOption('noop')
    const changes = (await page.locator('td .change').allTextContents()).map((t) => t.trim()).filter(Boolean)
    expect(changes.length).toBeGreaterThan(10)
    for (const c of changes) expect(c).toMatch(/^([+−]\d[\d,.]* %|±0 %|\d[\d,.]*×)$/)
    await expect(page.locator('td .ratio').count()).resolves.toBe(0)
    // PNG export
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-chart="throughput"] button.png').click(),
    ])
    expect(download.suggestedFilename()).toBe('throughput.png')
    await shot('3-results')
    // The README's picture (docs/screenshot.png): the table and the first charts.
    await page.setViewportSize({ width: 1360, height: 1240 })
    await page.evaluate(() =>
      (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0),
    )
    await idle()
    await page.screenshot({ path: join(RESULTS, '3-results-top.png') })
    await page.setViewportSize({ width: 1360, height: 900 })
    await page.getByLabel('Theme').selectOption('dark')
    // every chart redrawn on the dark background (they redraw in idle time, not at once)
    await page.waitForFunction(
      () => {
        type Canvas = {
          getContext(t: '2d'): {
            getImageData(x: number, y: number, w: number, h: number): { data: number[] }
          }
        }
        const doc = (
          globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<Canvas> } }
        ).document
        const canvases = Array.from(doc.querySelectorAll('[data-chart] canvas'))
        return (
          canvases.length > 0 &&
          canvases.every((c) => {
            const [r, g, b] = c.getContext('2d').getImageData(1, 1, 1, 1).data
            return r === 0x1f && g === 0x22 && b === 0x27
          })
        )
      },
      undefined,
      { timeout: 10_000 },
    )
    await shot('3-results-dark')
    await page.getByLabel('Theme').selectOption('light')
  }, 200_000)

  it('saves the session, and reopens it after a reload', async () => {
    await page.keyboard.press('Control+s')
    await page.getByRole('dialog').waitFor()
    await page.locator('input[name="session-name"]').fill('e2e flagship')
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click()
    await page.getByRole('status').filter({ hasText: 'Saved “e2e flagship”' }).waitFor()
    await page.reload()
    await page.getByText('No results yet').waitFor()
    await page.getByRole('button', { name: 'Start' }).click()
    await page.getByRole('button', { name: 'e2e flagship' }).click()
    for (const l of labels) await page.locator(`tr[data-label="${l}"] td.num`).first().waitFor()
    await page.locator('[data-chart="throughput"] canvas').waitFor()
    await page.locator('[data-chart="throughput"] .waiting').waitFor({ state: 'detached', timeout: 10_000 })
    await shot('4-reopened')
  })

  it('cancels a long run', async () => {
    await page.getByRole('button', { name: 'Setup' }).click()
    await field('repetitions').locator('input').fill('20')
    await page.getByText('The spec is valid.').waitFor()
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await page.locator('.progress .row[data-state="running"]').first().waitFor({ timeout: 30_000 })
    await page.keyboard.press('Escape')
    await page.locator('.progress .summary', { hasText: 'Cancelled.' }).waitFor({ timeout: 10_000 })
    await expect(page.getByRole('button', { name: 'Run', exact: true }).isEnabled()).resolves.toBe(true)
    expect(host.lab['runs'].running).toBe(0)
    await shot('5-cancelled')
  })

  it('shows a clear error next to an invalid field, and will not run', async () => {
    await page.getByRole('button', { name: 'Setup' }).click()
    await field('repetitions').locator('input').fill('1')
    const i = labels.indexOf('deadline')
    const fifo = field(`schedulers[${i}].tunables.fifo_batch`)
    await fifo.locator('input').fill('-3')
    await fifo.locator('.issue').waitFor()
    await expect(fifo.locator('.issue').textContent()).resolves.toBe('expected a positive integer, got -3')
    await expect(page.getByRole('button', { name: 'Run', exact: true }).isDisabled()).resolves.toBe(true)
    await expect(page.locator('.issues').textContent()).resolves.toContain(
      `schedulers[${i}].tunables.fifo_batch`,
    )
    await fifo.screenshot({ path: join(RESULTS, '6-invalid-field.png') })
    await fifo.locator('input').fill('16')
    await page.getByText('The spec is valid.').waitFor()
  })

  it('edits the spec as JSON and sweeps a tunable, one line per scheduler', async () => {
    await page.getByRole('tab', { name: 'JSON' }).click()
    await page.getByLabel('Spec JSON').fill(JSON.stringify(quickSpec, null, 2))
    await page.getByRole('button', { name: 'Apply' }).click()
    await page.getByText('The spec is valid.').waitFor()
    await page.getByRole('button', { name: 'Sweep' }).click()
    // before a parameter is chosen: what a sweep does, and no "0 × 2" to run
    await expect(page.getByTestId('sweep-about').textContent()).resolves.toContain(
      'once per value of one parameter',
    )
    const go = page.locator('.sweep .go button.primary')
    await expect(go.textContent()).resolves.toMatch(/^\s*Run sweep\s*$/)
    await expect(go.isDisabled()).resolves.toBe(true)
    await page.getByLabel('Parameter to vary').selectOption('schedulers[1].tunables.fifo_batch')
    await page.getByLabel('Values').fill('1, 4, 64')
    await expect(page.getByTestId('sweep-about').count()).resolves.toBe(0)
    // the runs it makes, said before they start
    await expect(go.textContent()).resolves.toContain('(3 × 2 schedulers: 6 runs)')
    await page.getByRole('button', { name: /Run sweep \(3 × 2/ }).click()
    const chart = page.locator('[data-chart="sweep"]')
    await chart.waitFor({ timeout: 60_000 })
    await chart.locator('.waiting').waitFor({ state: 'detached', timeout: 10_000 })
    await page.getByLabel('Metric').selectOption('dev:readMBps')
    await expect(chart.locator('.title').textContent()).resolves.toContain('against fifo_batch')
    await shot('7-sweep')
  })

  it('repeats until stable from the setup page: rounds join the progress, the table counts the runs', async () => {
    await page.getByRole('button', { name: 'Setup' }).click()
    await page.getByRole('tab', { name: 'JSON' }).click()
    const spec = { ...quickSpec, name: 'until-stable', device: { preset: 'hdd-7200-sata' }, repetitions: 2 }
    await page.getByLabel('Spec JSON').fill(JSON.stringify(spec, null, 2))
    await page.getByRole('button', { name: 'Apply' }).click()
    await page.getByText('The spec is valid.').waitFor()
    await page.getByRole('tab', { name: 'Form' }).click()
    await page.getByLabel('Repeat until stable').check()
    await field('untilStable.cvPercent').locator('input').fill('1.5')
    await field('untilStable.maxRepetitions').locator('input').fill('5')
    await page.getByText('The spec is valid.').waitFor()
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await page.getByText(/Done in/).waitFor({ timeout: 60_000 })
    await expect(page.locator('.context').textContent()).resolves.toMatch(
      /repeated until stable \(throughput CV ≤ 1\.5 %,\s+2–5\s+runs\)/,
    )
    // more than the 2 × 2 jobs it started with, each shown with its progress
    await expect(page.locator('.progress .row').count()).resolves.toBeGreaterThan(4)
    await expect(page.getByTestId('run-notices').textContent()).resolves.toContain('repeating until stable:')
    const counts = await page
      .locator('table[aria-label="Comparison"] tbody tr')
      .evaluateAll((els) => els.map((e) => e.textContent ?? ''))
    expect(counts).toHaveLength(2)
    for (const c of counts) expect(c).toMatch(/×[2-5]/)
    await idle()
    await shot('11-until-stable')
  }, 90_000)

  it('logged no errors in the page', () => {
    expect(errors).toEqual([])
  })
})
