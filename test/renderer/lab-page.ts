// An end-to-end test's lab: the browser host and Chromium started side by side, one page on the
// lab with its console errors and page errors collected, and both closed afterwards.
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from './browser'
import type { LabHost } from './lab-host'
import { startLabHost } from './lab-host'

export interface LabPage {
  host: LabHost
  browser: Browser
  page: Page
}

/** Start both, open the lab at `viewport`; the page's errors go to `errors`. */
export async function openLabPage(
  errors: string[],
  o: {
    viewport: { width: number; height: number }
    acceptDownloads?: boolean
    locale?: string
    timezoneId?: string
  },
): Promise<LabPage> {
  const [host, browser] = await Promise.all([startLabHost(), launchChromium()])
  const page = await browser.newPage(o)
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto(host.server.url)
  return { host, browser, page }
}

/** Close what `openLabPage` started (either may be missing when it failed part-way). */
export async function closeLabPage(host: LabHost | undefined, browser: Browser | undefined): Promise<void> {
  await browser?.close()
  await host?.close()
}

/** A new blank experiment given `doc` as its spec (through the JSON tab), checked valid. */
export async function newSpec(page: Page, doc: unknown): Promise<void> {
  await page.getByRole('button', { name: 'Start', exact: true }).click()
  await page.getByRole('button', { name: 'New blank experiment' }).click()
  await page.getByRole('tab', { name: 'JSON' }).click()
  await page.getByLabel('Spec JSON').fill(JSON.stringify(doc, null, 2))
  await page.getByRole('button', { name: 'Apply' }).click()
  await page.getByText('The spec is valid.').waitFor()
}

/** The same, run to the end. */
export async function runNewSpec(page: Page, doc: unknown): Promise<void> {
  await newSpec(page, doc)
  await page.keyboard.press('Control+Enter')
  await page.getByText(/Done in/).waitFor({ timeout: 120_000 })
}

/** Save the work as a session named `name` (with tags and notes when given), through the dialog. */
export async function saveSession(page: Page, name: string, tags?: string, notes?: string): Promise<void> {
  await page.keyboard.press('Control+s')
  const dialog = page.getByRole('dialog')
  await dialog.waitFor()
  await dialog.locator('input[name="session-name"]').fill(name)
  if (tags !== undefined) await dialog.locator('input[name="session-tags"]').fill(tags)
  if (notes !== undefined) await dialog.locator('textarea[name="session-notes"]').fill(notes)
  await dialog.getByRole('button', { name: 'Save' }).click()
  await page
    .getByRole('status')
    .filter({ hasText: `Saved “${name}”` })
    .waitFor()
}
