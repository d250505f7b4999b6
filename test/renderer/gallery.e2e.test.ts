// End to end: the gallery in the app, in Chromium through the browser host. The start page shows
// one card per gallery entry with its variants inside (ROW's six are one card); Reproduce runs an
// entry in the lab's simulation children, shows which simulation is going, and can be cancelled;
// its verdict shows published beside simulated figures and each claim PASS or FAIL with its
// numbers — the same as `iosched-lab reproduce` computes — with the source and the entry's page.
// Pictures of the start page and of the verdict at 1440 and 1024, light and dark, go to
// test-results/gallery-*.png.
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listGallery, loadGalleryEntry, reproduce } from '../../src/main/services/gallery-entries'
import { reportOf } from '../../src/main/services/gallery-reproductions'
import type { LabEvent } from '../../src/shared/api/lab-events'
import { schedulerColour } from '../../src/shared/report/palette'
import { num, times } from '../../src/shared/util/people-numbers'
import { chromiumAvailable, RESULTS } from './browser'
import { closeLabPage, openLabPage } from './lab-page'
import { rgb, swatchColours } from './swatches'
import type { LabHost } from './lab-host'

/** The entry that simulates quickest (`time iosched-lab reproduce NAME`: 4.1 s here, the others 5–12 s). */
const FAST = 'textbook-disk-scheduling'
/** The entry whose variants were six cards. */
const ROW = 'row-vs-cfq-emmc-2012'
/**
 * The entry that simulates longest in the lab's warm children (about 5 s here; textbook 0.07 s),
 * to cancel and to picture while it runs.
 */
const LONG = 'contest-mem-load-2003'

type Doc = { documentElement: { scrollWidth: number } }

describe.runIf(chromiumAvailable())('the gallery in Chromium: entry cards, reproduce, verdict', () => {
  let host: LabHost
  let browser: Browser
  let page: Page
  const errors: string[] = []
  const events: LabEvent[] = []

  const pageWidth = () =>
    page.evaluate(() => (globalThis as unknown as { document: Doc }).document.documentElement.scrollWidth)
  const card = (name: string) => page.locator(`[data-testid="gallery-entry"][data-entry="${name}"]`)

  /** Whole-page pictures at 1440 and 1024, light and dark (no sideways scroll at either); light after. */
  async function shots(name: string): Promise<void> {
    for (const width of [1440, 1024])
      for (const theme of ['light', 'dark']) {
        await page.setViewportSize({ width, height: 900 })
        await page.getByLabel('Theme').selectOption(theme)
        await expect.poll(pageWidth, { message: `${name} at ${width}` }).toBeLessThanOrEqual(width)
        await page.addStyleTag({ content: 'footer { position: static !important }' })
        await page.evaluate(() =>
          (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0),
        )
        await page.screenshot({
          path: join(RESULTS, `gallery-${name}-${width}-${theme}.png`),
          fullPage: true,
        })
      }
    await page.getByLabel('Theme').selectOption('light')
    await page.setViewportSize({ width: 1440, height: 900 })
  }

  beforeAll(async () => {
    ;({ host, browser, page } = await openLabPage(errors, { viewport: { width: 1440, height: 900 } }))
    host.lab.on((e) => events.push(e))
  }, 180_000)

  afterAll(() => closeLabPage(host, browser))

  it('shows one card per gallery entry, its variants inside: ROW is one card, not six', async () => {
    await card(ROW).waitFor()
    const entries = listGallery()
    await expect(page.getByTestId('gallery-entry').count()).resolves.toBe(entries.length)
    const row = loadGalleryEntry(ROW).entry
    await expect(card(ROW).locator('h3').textContent()).resolves.toBe(row.title)
    await expect(card(ROW).textContent()).resolves.toContain(row.source)
    await expect(card(ROW).getByTestId('gallery-variant').count()).resolves.toBe(6)
    for (const v of row.variants)
      await expect(
        card(ROW)
          .getByRole('button', { name: `Open “gallery/${ROW}/${v.id}”` })
          .count(),
      ).resolves.toBe(1)
    // no card has a verdict yet
    await expect(page.getByTestId('gallery-last').allTextContents()).resolves.toEqual(
      entries.map(() => 'Not reproduced yet'),
    )
    // no other card names a ROW variant
    await expect(
      page.getByRole('button', { name: `Open “gallery/${ROW}/lmdd-parallel”` }).count(),
    ).resolves.toBe(1)
    // the gallery's heading centred on the button beside it, which does not touch the first card
    const box = async (l: ReturnType<Page['locator']>) => (await l.boundingBox())!
    const h = await box(page.locator('#gallery-title'))
    const blank = await box(page.getByRole('button', { name: 'New blank experiment' }))
    const first = await box(page.getByTestId('gallery-entry').first())
    expect(Math.abs(h.y + h.height / 2 - (blank.y + blank.height / 2))).toBeLessThanOrEqual(1)
    expect(first.y - (blank.y + blank.height)).toBeGreaterThanOrEqual(6)
    await shots('start')
  })

  it('reproduces an entry: progress while it runs, then cancel stops it', async () => {
    const n = loadGalleryEntry(LONG).entry.variants.reduce((k, v) => k + (v.sweep?.values.length ?? 1), 0)
    await card(LONG)
      .getByRole('button', { name: `Reproduce “${LONG}”` })
      .click()
    const progress = page.getByTestId('reproduce-progress')
    await page.getByText(new RegExp(`simulation \\d+ of ${n}: `)).waitFor()
    await page.getByRole('button', { name: 'Cancel the reproduction' }).click()
    await page.getByText('Cancelled: its simulations were stopped.').waitFor()
    const failed = events.find((e) => e.type === 'reproduce:failed')
    expect(failed).toMatchObject({ cancelled: true })
    await expect((await host.lab.runStatus({ runId: failed!.runId })).state).toBe('cancelled')
    expect(events.some((e) => e.type === 'reproduce:done')).toBe(false)
    // nothing goes on behind it
    const seen = events.length
    await new Promise((r) => setTimeout(r, 500))
    expect(events.slice(seen).filter((e) => e.runId === failed!.runId)).toEqual([])
    // no verdict was made up: the claims wait, the simulated column says there is none
    await expect(progress.count()).resolves.toBe(0)
    await expect(page.getByTestId('reproduce-verdict').count()).resolves.toBe(0)
    await expect(page.locator('[data-col="verdict"]').allTextContents()).resolves.toEqual(
      loadGalleryEntry(LONG).entry.claims.map(() => '—'),
    )
    // pictures while it runs (again): at 1440 light and 1024 dark, then it is stopped
    await page.getByRole('button', { name: `Reproduce “${LONG}”` }).click()
    await progress.waitFor()
    await page.screenshot({ path: join(RESULTS, 'gallery-running-1440-light.png') })
    await page.setViewportSize({ width: 1024, height: 900 })
    await page.getByLabel('Theme').selectOption('dark')
    await page.screenshot({ path: join(RESULTS, 'gallery-running-1024-dark.png') })
    await page.getByLabel('Theme').selectOption('light')
    await page.setViewportSize({ width: 1440, height: 900 })
    if (await progress.count()) await page.getByRole('button', { name: 'Cancel the reproduction' }).click()
    await page.getByRole('button', { name: `Reproduce “${LONG}”` }).waitFor()
  })

  it('stops a reproduction from the header too: its Cancel button and Esc', async () => {
    const header = page.getByRole('banner').getByRole('button', { name: 'Cancel', exact: true })
    await expect(header.isDisabled()).resolves.toBe(true)
    for (const how of ['button', 'Escape'] as const) {
      const before = events.filter((e) => e.type === 'reproduce:failed').length
      await page.getByRole('button', { name: `Reproduce “${LONG}”` }).click()
      await page.getByTestId('reproduce-progress').waitFor()
      await page.getByText(/simulation \d+ of \d+: /).waitFor()
      await expect(header.getAttribute('title')).resolves.toBe('Cancel the reproduction (Esc)')
      if (how === 'button') await header.click()
      else await page.keyboard.press('Escape')
      await page.getByText('Cancelled: its simulations were stopped.').waitFor()
      const failed = events.filter((e) => e.type === 'reproduce:failed')
      expect(failed).toHaveLength(before + 1)
      expect(failed.at(-1)).toMatchObject({ cancelled: true })
      await expect(header.isDisabled()).resolves.toBe(true)
    }
  })

  it('shows the verdict: published beside simulated, each claim PASS or FAIL as the lab judges it', async () => {
    await page.getByRole('button', { name: '← Gallery' }).click()
    await card(FAST)
      .getByRole('button', { name: `Reproduce “${FAST}”` })
      .click()
    await page.getByTestId('reproduce-verdict').waitFor({ timeout: 120_000 })

    // what `iosched-lab reproduce` computes for the same entry (in this process)
    const loaded = loadGalleryEntry(FAST)
    const expected = reportOf(await reproduce(loaded, {}, { jobs: 0 }), [], 0)

    const rows = page.locator('[data-testid="figures"] tbody tr')
    await expect(rows.count()).resolves.toBe(expected.figures.length)
    for (const [i, f] of expected.figures.entries()) {
      const row = rows.nth(i)
      await expect(row.getAttribute('data-figure')).resolves.toBe(f.figure)
      await expect(row.locator('[data-col="published"]').textContent()).resolves.toBe(num(f.published))
      await expect(row.locator('[data-col="simulated"]').textContent()).resolves.toBe(num(f.simulated))
      // simulated ÷ published to two decimals in every row, so that the column reads alike: not
      // "1×" above "0.97×"
      await expect(row.locator('[data-col="ratio"]').textContent()).resolves.toBe(times(f.ratio))
      await expect(row.locator('[data-col="ratio"]').textContent()).resolves.toMatch(/^\d[\d,]*\.\d\d×$/)
      await expect(row.textContent()).resolves.toContain(f.unit)
    }
    // the figure in words, not by the entry's JSON key: the textbook's are the arm's seekCylinders
    await expect(
      page.locator('[data-testid="figures"] tbody td:nth-child(3)').allTextContents(),
    ).resolves.toEqual(expected.figures.map(() => 'head movement'))
    // each scheduler in its palette colour, as in the results' table and charts
    const swatches = await swatchColours(page.locator('[data-testid="figures"] tbody [data-col="scheduler"]'))
    expect(swatches.map(([l]) => l)).toEqual(expected.figures.map((f) => f.ref.label))
    for (const [label, colour] of swatches) expect(colour, label).toBe(rgb(schedulerColour(label)))
    const claims = page.locator('[aria-label="Claims"] li')
    await expect(claims.count()).resolves.toBe(expected.claims.length)
    for (const [i, c] of expected.claims.entries()) {
      const li = claims.nth(i)
      await expect(li.getAttribute('data-claim')).resolves.toBe(c.id)
      await expect(li.locator('[data-col="verdict"]').textContent()).resolves.toBe(c.pass ? 'PASS' : 'FAIL')
      await expect(li.locator('[data-col="detail"]').textContent()).resolves.toBe(c.detail)
      await expect(li.textContent()).resolves.toContain(c.text)
    }
    const holding = expected.claims.filter((c) => c.pass).length
    await expect(page.getByTestId('reproduce-verdict').textContent()).resolves.toContain(
      `${expected.pass ? 'Reproduced' : 'Not reproduced'} — ${holding} of ${expected.claims.length} claims hold`,
    )
    // the source, and the page rendered (its first heading), not shown as Markdown
    await expect(page.locator('.head .source').textContent()).resolves.toBe(loaded.entry.source)
    const heading = /^#\s+(.*)$/m.exec(loaded.page)![1]
    await expect(page.getByTestId('entry-page').locator('h3').first().textContent()).resolves.toBe(heading)
    await expect(page.getByTestId('entry-page').textContent()).resolves.not.toContain('**')
    // the lab kept it for a client that lost its events
    const done = events.find((e) => e.type === 'reproduce:done')!
    await expect(host.lab.runStatus({ runId: done.runId })).resolves.toMatchObject({ state: 'done' })
    await shots('verdict')
    // a reload keeps the verdict (the view is in the URL, the verdict in the tab's storage)
    await page.reload()
    await page.getByTestId('reproduce-verdict').waitFor()
    await expect(page.getByTestId('reproduce-verdict').textContent()).resolves.toContain(
      `${holding} of ${expected.claims.length} claims hold`,
    )
    await expect(page.locator('[data-testid="figures"] tbody tr').count()).resolves.toBe(
      expected.figures.length,
    )
    // its card on the start page says so — claims that held and failed, and when — and a new
    // tab (the app started again) still does; the cancelled entry was not reproduced
    const fails = expected.claims.length - holding
    const last = new RegExp(
      `^${holding} PASS · ${fails} FAIL · last reproduced \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$`,
    )
    await page.getByRole('button', { name: '← Gallery' }).click()
    const lastOf = (name: string) => card(name).getByTestId('gallery-last')
    await expect(lastOf(FAST).textContent()).resolves.toMatch(last)
    await expect(lastOf(FAST).getAttribute('class')).resolves.toContain(fails ? 'fail' : 'pass')
    await expect(lastOf(LONG).textContent()).resolves.toBe('Not reproduced yet')
    // (a new context with the lab's stored state: its localStorage, not the tab's sessionStorage)
    const restarted = await browser.newContext({ storageState: await page.context().storageState() })
    const again = await restarted.newPage()
    await again.goto(host.server.url)
    await expect(
      again
        .locator(`[data-testid="gallery-entry"][data-entry="${FAST}"] [data-testid="gallery-last"]`)
        .textContent(),
    ).resolves.toMatch(last)
    await restarted.close()
  }, 180_000)

  it('opens a variant of the entry as an experiment', async () => {
    await page.getByRole('button', { name: `Open “gallery/${FAST}/queue”` }).click()
    await page.getByText('The spec is valid.').waitFor()
    expect(errors).toEqual([])
  })

  it('says why an entry without a mechanism has no explanation, and runs a variant for its why', async () => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Start' }).click()
    await card(FAST)
      .getByRole('button', { name: `Reproduce “${FAST}”` })
      .click()
    await page.getByTestId('reproduce-verdict').waitFor({ timeout: 120_000 })
    // the textbook pairs no two runs: its claims are about head movement, not one process's wait
    const panel = page.getByTestId('reproduce-why')
    await expect(panel.getAttribute('data-mechanism')).resolves.toBeNull()
    const none = panel.getByTestId('reproduce-why-none')
    await expect(none.textContent()).resolves.toMatch(/no pair of runs to explain/)
    const variants = loadGalleryEntry(FAST).entry.variants.map((v) => v.id)
    await expect(
      none
        .getByRole('button', { name: /^Run “.*” and see why$/ })
        .evaluateAll((b) => b.map((x) => x.textContent?.replace(/\s+/g, ' ').trim())),
    ).resolves.toEqual(variants.map((id) => `Run ${id}`))
    await panel.screenshot({ path: join(RESULTS, 'gallery-why-none.png') })
    // it runs there and then, and the results show each process's why
    await none.getByRole('button', { name: `Run “${variants[0]}” and see why` }).click()
    await page.getByText(/Done in/).waitFor({ timeout: 120_000 })
    await expect(
      page
        .getByRole('navigation', { name: 'Views' })
        .getByRole('button', { name: 'Results' })
        .getAttribute('aria-current'),
    ).resolves.toBe('page')
    await page.getByTestId('why').waitFor()
    // and it is taken there: the why's heading focused, its panel just below the sticky header
    type Focus = { document: { activeElement: { id: string } | null } }
    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as Focus).document.activeElement?.id))
      .toBe('why-title')
    const top = (await page.getByTestId('why').boundingBox())!.y
    const below = (await page.getByRole('banner').boundingBox())!
    expect(top).toBeGreaterThanOrEqual(below.height)
    expect(top - below.height).toBeLessThan(40)
    // the replayed queue's process (one pid of the trace) has its explanation and its time split
    await page.getByTestId('why-explanation').first().waitFor()
    await expect(page.getByTestId('why-no-explanation').count()).resolves.toBe(0)
    expect(errors).toEqual([])
  }, 180_000)
})
