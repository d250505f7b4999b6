// End to end: the app at the widths storage people use (1024 and 1440 px), and its reports, in
// Chromium through the browser host. At 1024 × 700 no view scrolls sideways and the header's
// controls and the experiment's name are whole; Setup's sections fold to a summary line and stay
// folded across views and reloads, and going to a problem opens its section; at 1440 the
// flagship's eight schedulers fit the comparison table; the HTML report has its charts first and
// the spec folded at the end, in the app's colours; the text report names each run's source and
// holds the workload and tunables. Pictures at 1440 and 1024, light and dark, go to
// test-results/layout-*.png.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumAvailable, RESULTS } from './browser'
import { closeLabPage, openLabPage } from './lab-page'
import { chartsIn as chartsInOf } from './page-waits'
import type { LabHost } from './lab-host'
import { SCHEDULER_COLOURS } from '../../src/shared/report/palette'

const FLAGSHIP = 'gallery/streaming-read-under-write-2003/main'
const LABELS = ['noop', 'deadline', 'cfq-v1', 'anticipatory', 'cfq', 'bfq', 'mq-deadline', 'kyber']
/** A run far shorter than the throughput's 100-ms bins. */
const SHORT = {
  name: 'short',
  device: { preset: 'nullblk' },
  workload: {
    processes: [{ name: 'reader', type: 'dd', params: { op: 'read', file: 'f', bs: '1M', count: 16 } }],
  },
  schedulers: ['noop', 'deadline'],
}
const IDS = ['experiment', 'schedulers', 'workload', 'device', 'host']
const VIEWS = ['Start', 'Setup', 'Results', 'Sweep', 'Devices', 'Library']

/** The page's DOM as far as these tests use it (the tests' types have no DOM). */
type El = {
  getBoundingClientRect(): { left: number; right: number; top: number; bottom: number; width: number }
  scrollWidth: number
  clientWidth: number
}
type Doc = { documentElement: { scrollWidth: number; clientWidth: number } }

describe.runIf(chromiumAvailable())('layout at 1024 and 1440 px, and the reports, in Chromium', () => {
  let host: LabHost
  let browser: Browser
  let page: Page
  const errors: string[] = []

  const pageWidth = () =>
    page.evaluate(() => (globalThis as unknown as { document: Doc }).document.documentElement.scrollWidth)

  const chartsIn = (rgb: number[]) => chartsInOf(page, rgb)

  /** Pictures of the window (not the whole page) at 1440 and 1024, light and dark; light after. */
  async function shots(name: string, height = 900): Promise<void> {
    for (const width of [1440, 1024])
      for (const theme of ['light', 'dark']) {
        await page.setViewportSize({ width, height })
        await page.getByLabel('Theme').selectOption(theme)
        await chartsIn(theme === 'dark' ? [0x1f, 0x22, 0x27] : [255, 255, 255])
        await page.screenshot({ path: join(RESULTS, `layout-${name}-${width}-${theme}.png`) })
      }
    await page.getByLabel('Theme').selectOption('light')
  }

  /** Whether the element is on screen, inside the window's width, and shows all of its text. */
  const whole = (selector: string) =>
    page.locator(selector).evaluateAll((els) =>
      els.map((e) => {
        const el = e as unknown as El & { textContent: string | null }
        const r = el.getBoundingClientRect()
        const w = (globalThis as unknown as { innerWidth: number }).innerWidth
        return {
          text: (el.textContent ?? '').trim(),
          visible: r.width > 0 && r.left >= 0 && r.right <= w,
          clipped: el.scrollWidth > el.clientWidth + 1,
          top: Math.round(r.top),
        }
      }),
    )

  beforeAll(async () => {
    ;({ host, browser, page } = await openLabPage(errors, {
      viewport: { width: 1024, height: 700 },
      acceptDownloads: true,
    }))
    await page.getByRole('button', { name: `Open “${FLAGSHIP}”` }).click()
    await page.getByText('The spec is valid.').waitFor()
  }, 180_000)

  afterAll(() => closeLabPage(host, browser))

  it('fits 1024 × 700: no sideways scroll in any view, the header’s controls and the name whole', async () => {
    for (const v of VIEWS) {
      await page
        .getByRole('navigation', { name: 'Views' })
        .getByRole('button', { name: v, exact: true })
        .click()
      await expect.poll(pageWidth, { message: v }).toBeLessThanOrEqual(1024)
    }
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Setup' }).click()
    const controls = await whole('header button, header select')
    expect(controls.map((c) => c.text)).toEqual(
      expect.arrayContaining([...VIEWS, 'Run', 'Cancel', 'Save', 'Save as…']),
    )
    for (const c of controls) {
      expect(c.visible, c.text).toBe(true)
      expect(c.clipped, c.text).toBe(false)
    }
    // one line each: "Save as…" does not wrap (every button as tall as "Run")
    const heights = await page
      .locator('header .actions button')
      .evaluateAll((els) =>
        els.map((e) =>
          Math.round(
            (e as unknown as El).getBoundingClientRect().bottom -
              (e as unknown as El).getBoundingClientRect().top,
          ),
        ),
      )
    expect(new Set(heights).size).toBe(1)
    const [name] = await whole('header .name')
    expect(name).toMatchObject({ text: 'streaming-read-under-write-2003', visible: true, clipped: false })
    // and at 1440, the name beside the views as before
    await page.setViewportSize({ width: 1440, height: 900 })
    const [wide] = await whole('header .name')
    expect(wide).toMatchObject({ visible: true, clipped: false })
    await expect(pageWidth()).resolves.toBeLessThanOrEqual(1440)
    await shots('header-setup')
  })

  it('folds Setup’s sections to a summary line, and keeps them folded across views and a reload', async () => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Setup' }).click()
    const section = (id: string) => page.locator(`[data-section="${id}"]`)
    const summary = (id: string) => section(id).getByTestId('section-summary')
    for (const id of IDS) {
      await expect(section(id).getAttribute('open'), id).resolves.toBe('')
      await expect(summary(id).count(), id).resolves.toBe(0)
    }
    await section('schedulers').locator('> summary').click()
    await section('workload').locator('> summary').click()
    await section('host').locator('> summary').click()
    // the flagship's cfq-v1 is cfq with version=v1
    await expect(summary('schedulers').textContent()).resolves.toBe(
      `8: ${LABELS.join(', ')} · 1 tunable changed`,
    )
    await expect(summary('workload').textContent()).resolves.toBe(
      '2 files · 2 processes: writer (dd), reader (cat) · stops when reader finishes, or after 900 s',
    )
    await expect(summary('host').textContent()).resolves.toBe('linux-2003 · defaults')
    await expect(page.locator('[data-scheduler="noop"]').isVisible()).resolves.toBe(false)
    await expect(page.getByLabel('Workload to add').isVisible()).resolves.toBe(false)
    await expect(page.getByLabel('Device preset').isVisible()).resolves.toBe(true)
    await shots('setup-folded')
    // kept: to the results and back, and after a reload
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Results' }).click()
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Setup' }).click()
    await expect(summary('schedulers').isVisible()).resolves.toBe(true)
    await page.reload()
    await page.getByText('The spec is valid.').waitFor()
    for (const id of ['schedulers', 'workload', 'host'])
      await expect(section(id).getAttribute('open'), id).resolves.toBeNull()
    await expect(section('device').getAttribute('open')).resolves.toBe('')
    // (a reload starts a blank experiment: the flagship again, its sections folded as they were)
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Start' }).click()
    await page.getByRole('button', { name: `Open “${FLAGSHIP}”` }).click()
    await page.getByText('The spec is valid.').waitFor()
    await expect(summary('schedulers').textContent()).resolves.toContain('8: noop, deadline, cfq-v1')
    // a changed tunable shows in the summary
    await section('schedulers').locator('> summary').click()
    await page.locator('[data-path="schedulers[1].tunables.fifo_batch"] input').fill('8')
    await section('schedulers').locator('> summary').click()
    await expect(summary('schedulers').textContent()).resolves.toContain('· 2 tunables changed')
    // a problem in a folded section: said on its summary, and going to it opens the section
    await page.getByRole('tab', { name: 'JSON' }).click()
    const json = page.getByLabel('Spec JSON')
    const text = await json.inputValue()
    await json.fill(text.replace('"maxSeconds": 900', '"maxSeconds": -1'))
    await page.getByRole('button', { name: 'Apply' }).click()
    await page.getByRole('tab', { name: 'Form' }).click()
    await expect(section('workload').locator('> summary .error').textContent()).resolves.toBe('has problems')
    await page.locator('.issue-link').first().click()
    await expect(section('workload').getAttribute('open')).resolves.toBe('')
    await expect(
      page
        .getByLabel('Time limit')
        .evaluate(
          (e) =>
            e === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
        ),
    ).resolves.toBe(true)
    await page.getByLabel('Time limit').fill('900')
    await page.getByLabel('Time limit').press('Tab')
    await page.getByText('The spec is valid.').waitFor()
    // all at once
    await page.getByRole('button', { name: 'Fold all' }).click()
    for (const id of IDS) await expect(summary(id).isVisible(), id).resolves.toBe(true)
    await expect(summary('experiment').textContent()).resolves.toBe(
      'streaming-read-under-write-2003 · 1 repetition · seed 1',
    )
    await expect(summary('device').textContent()).resolves.toBe('hdd-2003-ide (hdd model) · defaults')
    await page.setViewportSize({ width: 1024, height: 700 })
    await page.screenshot({ path: join(RESULTS, 'layout-setup-all-folded-1024-light.png') })
    await page.getByRole('button', { name: 'Unfold all' }).click()
    for (const id of IDS) await expect(section(id).getAttribute('open'), id).resolves.toBe('')
  })

  it('fits the flagship’s eight schedulers in the comparison table at 1440, ratios and all', async () => {
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.keyboard.press('Control+Enter')
    const table = page.getByRole('table', { name: 'Comparison' })
    for (const l of LABELS)
      await table.locator(`tr[data-label="${l}"] td.num`).first().waitFor({ timeout: 150_000 })
    await page.getByText(/Done in/).waitFor({ timeout: 30_000 })
    const overflow = () =>
      table.evaluate((t) => {
        let s = t as unknown as El & { parentElement: unknown }
        while (s.parentElement && s.scrollWidth <= s.clientWidth) s = s.parentElement as typeof s
        return {
          scrolls: s.scrollWidth > s.clientWidth,
          page: (globalThis as unknown as { document: Doc }).document.documentElement.scrollWidth,
        }
      })
    await expect(overflow()).resolves.toEqual({ scrolls: false, page: 1440 })
    await page.getByLabel('Baseline scheduler').selectOption('noop')
    await expect(overflow()).resolves.toEqual({ scrolls: false, page: 1440 })
    await page.setViewportSize({ width: 1024, height: 700 })
    // (the charts resize in idle time: the page is wider until they have)
    await expect.poll(pageWidth, { timeout: 10_000 }).toBeLessThanOrEqual(1024)
    await page.getByLabel('Baseline scheduler').selectOption('')
    // the status line stays over the table's row names (sticky while the columns scroll) as they
    // pass under it: they drew over it, a name floating on the status line
    const name = table.locator('tbody tr').first().locator('.sched')
    const onTop = await page.evaluate(
      ({ y, x }) => {
        const d = (globalThis as unknown as { document: unknown }).document as {
          querySelector(s: string): El & { offsetHeight: number }
          elementFromPoint(x: number, y: number): { closest(s: string): unknown } | null
          defaultView: { innerHeight: number; scrollBy(x: number, y: number): void }
        }
        const footer = d.querySelector('footer')
        const mid = d.defaultView.innerHeight - footer.offsetHeight / 2
        d.defaultView.scrollBy(0, y - mid)
        return d.elementFromPoint(x, mid)?.closest('footer') != null
      },
      await name.evaluate((el) => {
        const r = (el as unknown as El).getBoundingClientRect()
        return { y: (r.top + r.bottom) / 2, x: (r.left + r.right) / 2 }
      }),
    )
    expect(onTop).toBe(true)
    // a chart's buttons wrap below its title with its controls, never alone on a line of their own:
    // they are one group (the PNG button a few pixels too wide for the first line went down alone)
    const card = page.locator('[data-chart="throughput"]')
    await card.scrollIntoViewIfNeeded()
    await expect(card.locator('.controls').getByRole('button', { name: 'PNG' }).count()).resolves.toBe(1)
    const top = async (l: ReturnType<Page['locator']>) => (await l.boundingBox())!.y
    const png = await top(card.getByRole('button', { name: 'PNG' }))
    const directions = await top(card.getByLabel('Directions', { exact: true }))
    expect(Math.abs(png - directions)).toBeLessThan(8)
    await page.addStyleTag({ content: 'footer { position: static !important }' })
    await shots('results')
  }, 200_000)

  it('exports an HTML report with the charts first and the spec folded at the end', async () => {
    await page.keyboard.press('Control+s')
    const dialog = page.getByRole('dialog')
    await dialog.waitFor()
    await dialog.locator('input[name="session-name"]').fill('layout')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('status').filter({ hasText: 'Saved “layout”' }).waitFor()
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-export="html"]').click(),
    ])
    const report = await readFile((await download.path())!, 'utf8')
    await writeFile(join(RESULTS, 'layout-report.html'), report)
    const view = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    await view.setContent(report)
    const order = await view.evaluate(() => {
      const d = (
        globalThis as unknown as {
          document: {
            querySelectorAll(s: string): ArrayLike<{ tagName: string; closest(s: string): unknown }>
          }
        }
      ).document
      return Array.from(d.querySelectorAll('body svg, body table, body details')).map((e) =>
        e.tagName.toLowerCase() === 'table' && e.closest('details') ? 'spec-table' : e.tagName.toLowerCase(),
      )
    })
    const firstTable = order.indexOf('table')
    expect(order.lastIndexOf('svg')).toBeLessThan(firstTable)
    expect(order.filter((t) => t === 'svg').length).toBeGreaterThanOrEqual(4) // read, write, 2 latency CDFs
    expect(order.at(-1)).toBe('details')
    const spec = view.locator('details#spec')
    await expect(spec.getAttribute('open')).resolves.toBeNull()
    await expect(spec.locator('pre').isVisible()).resolves.toBe(false)
    await expect(spec.locator('pre').textContent()).resolves.toContain('"hdd-2003-ide"')
    // the app's colours, light and dark as the system is
    const bg = () =>
      view.evaluate(
        () =>
          (
            globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }
          ).getComputedStyle((globalThis as unknown as { document: { body: unknown } }).document.body)
            .backgroundColor,
      )
    await expect(bg()).resolves.toBe('rgb(244, 245, 243)')
    for (const width of [1440, 1024]) {
      await view.setViewportSize({ width, height: 900 })
      for (const scheme of ['light', 'dark'] as const) {
        await view.emulateMedia({ colorScheme: scheme })
        await view.screenshot({ path: join(RESULTS, `layout-report-${width}-${scheme}.png`), fullPage: true })
      }
      await expect(
        view.evaluate(
          () => (globalThis as unknown as { document: Doc }).document.documentElement.scrollWidth,
        ),
      ).resolves.toBeLessThanOrEqual(width)
    }
    await expect(bg()).resolves.toBe('rgb(21, 23, 26)')
    await spec.locator('> summary').click()
    await expect(spec.locator('pre').isVisible()).resolves.toBe(true)
    await view.close()
  })

  it('exports a text report naming each run’s source, with the workload and the tunables', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-export="text"]').click(),
    ])
    const text = await readFile((await download.path())!, 'utf8')
    await writeFile(join(RESULTS, 'layout-report.txt'), text)
    const runs = text.split('\n\n').find((b) => b.startsWith('runs:'))!
    for (const l of LABELS) expect(runs).toMatch(new RegExp(`^${l}\\s+simulated \\(hdd-2003-ide\\)$`, 'm'))
    expect(text).toContain('writer: dd op=write file=foo bs=1M count=512 loop=true')
    expect(text).toContain('reader: cat file=100m-file; starts at 10000 ms')
    expect(text).toContain('stops: when reader finishes, or after 900 s at the latest')
    expect(text).toContain('cfq-v1: cfq, version=v1\n')
    expect(text).toContain('noop: noop, defaults\n')
    expect(text).toContain('deadline: deadline, fifo_batch=8\n')
  })

  it('draws a run shorter than one time bin (0.016 s on nullblk) in the app and the report', async () => {
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Start' }).click()
    await page.getByRole('button', { name: 'New blank experiment' }).click()
    await page.getByRole('tab', { name: 'JSON' }).click()
    await page.getByLabel('Spec JSON').fill(JSON.stringify(SHORT, null, 2))
    await page.getByRole('button', { name: 'Apply' }).click()
    await page.getByText('The spec is valid.').waitFor()
    await page.getByRole('tab', { name: 'Form' }).click()
    await page.keyboard.press('Control+Enter')
    await page.getByText(/Done in/).waitFor({ timeout: 60_000 })
    const seconds = Number(
      await page.locator('tr[data-label="noop"] td[data-metric="run:seconds"]').first().textContent(),
    )
    expect(seconds).toBeGreaterThan(0)
    expect(seconds).toBeLessThan(0.1) // shorter than one 100-ms bin
    const canvas = page.locator('[data-chart="throughput"] canvas')
    await expect.poll(() => canvas.getAttribute('data-series'), { timeout: 15_000 }).toBeTruthy()
    await chartsIn([255, 255, 255])
    // noop's blue (the palette's) in the plot (below the legend): a line, not a lone invisible point at zero
    const noopRgb = [1, 3, 5].map((i) => parseInt(SCHEDULER_COLOURS.noop.slice(i, i + 2), 16))
    const blue = await canvas.evaluate((c, [r, g, b]) => {
      const el = c as unknown as {
        width: number
        height: number
        getContext(t: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: number[] } }
      }
      const top = Math.round(el.height * 0.2)
      const d = el.getContext('2d').getImageData(0, top, el.width, el.height - top).data
      let n = 0
      for (let i = 0; i < d.length; i += 4)
        if (Math.abs(d[i] - r) < 40 && Math.abs(d[i + 1] - g) < 40 && Math.abs(d[i + 2] - b) < 40) n++
      return n
    }, noopRgb)
    expect(blue).toBeGreaterThan(200)
    await page
      .locator('[data-chart="throughput"]')
      .screenshot({ path: join(RESULTS, 'layout-short-run.png') })
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-export="html"]').click(),
    ])
    const report = await readFile((await download.path())!, 'utf8')
    const read = report.slice(
      report.indexOf('Read throughput'),
      report.indexOf('</svg>', report.indexOf('Read throughput')),
    )
    const noop = /<polyline [^>]*points="([^"]+)"><title>noop<\/title>/.exec(read)
    expect(noop, 'noop’s line').not.toBeNull()
    expect(noop![1].split(' ').length).toBeGreaterThanOrEqual(2)
    expect(read).not.toMatch(/>-0\.\d+</) // no x axis from -0.5
  }, 90_000)

  it('logged no errors in the page', () => {
    expect(errors).toEqual([])
  })
})
