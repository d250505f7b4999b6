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
