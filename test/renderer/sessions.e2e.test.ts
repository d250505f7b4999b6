// End to end: sessions in Chromium through the browser host, as a person saves work — Save as
// writes a new file named from the new name and never replaces the session it came from, or any
// file, without asking; Ctrl+S of a session another program changed since asks instead of
// overwriting; a session holding a comparison, a sweep, imported runs and notes opens after a
// reload as it was saved; a reload, or a new experiment, with unsaved work asks first.
// Screenshots go to test-results/sessions-*.png.
import { readFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SessionStore } from '../../src/main/services/sessions'
import { FIO_MINI } from '../formats/fixtures'
import { importedRuns } from '../library/helpers'
import { chromiumAvailable, launchChromium, RESULTS } from './browser'
import { startLabHost } from './lab-host'
import { newSpec } from './lab-page'
import type { LabHost } from './lab-host'

const quickSpec = {
  name: 'quick-ssd',
  device: { preset: 'ssd-sata-mlc' },
  workload: {
    processes: [{ name: 'rr', type: 'random-read', params: { size: '64M', count: 200, direct: true } }],
  },
  schedulers: ['noop', 'deadline'],
}

describe.runIf(chromiumAvailable())('sessions in Chromium, through the browser host', () => {
  let host: LabHost
  let browser: Browser
  let page: Page
  const errors: string[] = []
  const shot = async (name: string) => {
    await page.addStyleTag({ content: 'footer { position: static !important }' })
    await page.screenshot({ path: join(RESULTS, `sessions-${name}.png`), fullPage: true })
  }
  const dialog = () => page.getByRole('dialog')
  const saved = (name: string) =>
    page
      .getByRole('status')
      .filter({ hasText: `Saved “${name}”` })
      .waitFor()
  const store = () => new SessionStore(host.library, 'test')

  beforeAll(async () => {
    ;[host, browser] = await Promise.all([startLabHost(), launchChromium()])
    await mkdir(RESULTS, { recursive: true })
    page = await browser.newPage({ viewport: { width: 1360, height: 900 } })
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto(host.server.url)
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await host?.close()
  })

  /** A new experiment from JSON. */
  const loadSpec = (doc: unknown): Promise<void> => newSpec(page, doc)

  it('saves as a new file named from the new name, leaving the session it came from as it was', async () => {
    await loadSpec(quickSpec)
    await page.keyboard.press('Control+Enter')
    await page.getByText(/Done in/).waitFor({ timeout: 120_000 })
    await page.keyboard.press('Control+s')
    await dialog().locator('input[name="session-name"]').fill('Disk A')
    await dialog().locator('textarea[name="session-notes"]').fill('the first one')
    await dialog().getByRole('button', { name: 'Save' }).click()
    await saved('Disk A')
    const first = join(host.library, 'disk-a.json')
    const before = readFileSync(first)
    // Save as: the file field starts empty — the new file is named from the new name
    await page.getByRole('button', { name: 'Save as…' }).click()
    await expect(dialog().locator('input[name="session-path"]').inputValue()).resolves.toBe('')
    await dialog().locator('input[name="session-name"]').fill('Disk A, second')
    await dialog().locator('textarea[name="session-notes"]').fill('the second one')
    await dialog().getByRole('button', { name: 'Save' }).click()
    await saved('Disk A, second')
    expect(readFileSync(first).equals(before)).toBe(true)
    expect((await store().open(join(host.library, 'disk-a-second.json'))).notes).toBe('the second one')
  }, 150_000)

  it('asks before replacing a file that is there, and replaces it only when told to', async () => {
    const first = join(host.library, 'disk-a.json')
    const before = readFileSync(first)
    await page.getByRole('button', { name: 'Save as…' }).click()
    await dialog().locator('input[name="session-name"]').fill('Disk A')
    await dialog().getByRole('button', { name: 'Save' }).click()
    const alert = dialog().getByRole('alert')
    await alert.waitFor()
    await expect(alert.textContent()).resolves.toContain(
      `${first}: a session file is there already (“Disk A”`,
    )
    expect(readFileSync(first).equals(before)).toBe(true)
    await shot('1-replace')
    // another name: no longer about that file; back to it, and told to replace it
    await dialog().locator('input[name="session-name"]').fill('Disk A, third')
    await expect(alert.count()).resolves.toBe(0)
    await dialog().locator('input[name="session-name"]').fill('Disk A')
    await dialog().getByRole('button', { name: 'Save' }).click()
    await dialog().getByRole('button', { name: 'Replace it' }).click()
    await saved('Disk A')
    expect((await store().open(first)).notes).toBe('the second one')
  })

  it('asks instead of overwriting, on Ctrl+S, a session another program changed since', async () => {
    const first = join(host.library, 'disk-a.json')
    // `import --session` from another program, meanwhile
    await store().addRuns(first, 'Disk A', importedRuns('fio disk', [12]))
    await page.keyboard.press('Control+s')
    const alert = dialog().getByRole('alert')
    await alert.waitFor()
    await expect(alert.textContent()).resolves.toContain(
      `${first}: the session was changed since it was opened here`,
    )
    await dialog().getByRole('button', { name: 'Cancel' }).click()
    expect((await store().open(first)).runs.map((r) => r.label)).toEqual(['fio disk'])
  })

  it('opens a saved session after a reload as it was: comparison, sweep and its setup, imported runs, notes', async () => {
    await loadSpec(quickSpec)
    await page.keyboard.press('Control+Enter')
    await page.getByText(/Done in/).waitFor({ timeout: 120_000 })
    const table = page.locator('table[aria-label="Comparison"]')
    await page
      .getByTestId('import-input')
      .setInputFiles([{ name: 'mini.json', mimeType: 'application/json', buffer: Buffer.from(FIO_MINI) }])
    await page
      .getByRole('status')
      .filter({ hasText: /Imported 1 run/ })
      .waitFor()
    // the imported run joins the comparison's rows, marked imported
    await table.locator('tr[data-label="mini"][data-kind="imported"]').waitFor()
    const compared = await table.textContent()
    await page.getByRole('button', { name: 'Sweep', exact: true }).click()
    await page.getByLabel('Parameter to vary').selectOption('schedulers[1].tunables.fifo_batch')
    await page.getByLabel('Values').fill('1, 4, 64')
    await page.getByRole('button', { name: /Run sweep \(3 × 2/ }).click()
    await page.locator('[data-chart="sweep"]').waitFor({ timeout: 60_000 })
    // the comparison is still there beside the sweep
    await page.getByRole('button', { name: 'Results', exact: true }).click()
    await expect(table.textContent()).resolves.toBe(compared)
    await page.getByRole('button', { name: 'Save as…' }).click()
    await dialog().locator('input[name="session-name"]').fill('Everything')
    await dialog().locator('input[name="session-tags"]').fill('ssd, sweep')
    await dialog().locator('textarea[name="session-notes"]').fill('all of it')
    await dialog().getByRole('button', { name: 'Save' }).click()
    await saved('Everything')

    await page.reload()
    await page.getByRole('button', { name: 'Start', exact: true }).click()
    await page.getByRole('button', { name: 'Everything', exact: true }).click()
    await expect(table.textContent()).resolves.toBe(compared)
    const imported = page.getByRole('table', { name: 'Imported runs' })
    await expect(imported.locator('tbody tr').count()).resolves.toBe(1)
    await shot('2-reopened-results')
    await page.getByRole('button', { name: 'Sweep', exact: true }).click()
    await expect(page.getByLabel('Parameter to vary').inputValue()).resolves.toBe(
      'schedulers[1].tunables.fifo_batch',
    )
    await expect(page.getByLabel('Values').inputValue()).resolves.toBe('1, 4, 64')
    await page.locator('[data-chart="sweep"] canvas').waitFor()
    await page.locator('[data-chart="sweep"] .waiting').waitFor({ state: 'detached', timeout: 10_000 })
    await shot('3-reopened-sweep')
    await page.getByRole('button', { name: 'Save as…' }).click()
    await expect(dialog().locator('textarea[name="session-notes"]').inputValue()).resolves.toBe('all of it')
    await expect(dialog().locator('input[name="session-tags"]').inputValue()).resolves.toBe('ssd, sweep')
    await dialog().getByRole('button', { name: 'Cancel' }).click()
  }, 200_000)

  it('asks before a reload or a new experiment drops unsaved work, and not once it is saved', async () => {
    const table = page.locator('table[aria-label="Comparison"]')
    await page.getByRole('button', { name: 'Results', exact: true }).click()
    await page.getByRole('button', { name: 'Run', exact: true }).click() // a new result: unsaved
    await page.getByText(/Done in/).waitFor({ timeout: 120_000 })
    const asked: string[] = []
    const answer = (accept: boolean) =>
      page.once('dialog', (d) => {
        asked.push(d.type())
        void (accept ? d.accept() : d.dismiss())
      })
    answer(false)
    await page.reload({ timeout: 3_000 }).catch(() => undefined) // held: the page stays
    expect(asked).toEqual(['beforeunload'])
    await expect(table.count()).resolves.toBe(1)
    // replacing the work from the start page asks too
    answer(false)
    await page.getByRole('button', { name: 'Start', exact: true }).click()
    await page.getByRole('button', { name: 'New blank experiment' }).click()
    expect(asked).toEqual(['beforeunload', 'confirm'])
    await page.getByRole('button', { name: 'Results', exact: true }).click()
    await expect(table.count()).resolves.toBe(1)
    // saved: nothing to ask about
    await page.keyboard.press('Control+s')
    await saved('Everything')
    page.on('dialog', (d) => {
      asked.push(d.type())
      void d.dismiss()
    })
    await page.reload()
    await page.getByText('No results yet').waitFor()
    expect(asked).toEqual(['beforeunload', 'confirm'])
  }, 150_000)

  it('logged no errors in the page', () => {
    expect(errors.filter((e) => !e.includes('409'))).toEqual([])
  })
})
