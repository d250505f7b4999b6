// End to end: one colour per scheduler and statistics that do not mislead, in Chromium through the
// browser host. A deterministic experiment repeated three times (nullblk, a fixed-size reader and
// a writer looping beside it) shows the "identical repetitions" notice instead of "± 0"; "best"
// marks the reader's time but never the looping writer's; each scheduler has the palette's colour
// in the table, the progress, every chart, the library and the HTML report, a label variant a shade
// of its own; the library's chart starts on the metric the workload makes sense of. A workload with
// randomness keeps its intervals, at their significant digits. Screenshots at 1440 and 1024 pixels
// wide, light and dark, go to test-results/stats-*.png.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { paletteFor, SCHEDULER_COLOURS, schedulerColour } from '../../src/shared/report/palette'
import { chromiumAvailable, RESULTS } from './browser'
import { closeLabPage, openLabPage, runNewSpec, saveSession } from './lab-page'
import { idle as idleOf, chartsIn as chartsInOf } from './page-waits'
import { rgb } from './swatches'
import type { LabHost } from './lab-host'

const VARIANT = 'deadline (fifo_batch=1)'
/** A second variant whose label asks for the same shade of deadline's as VARIANT's. */
const VARIANT2 = 'deadline (fifo_batch=4)'
const LABELS = ['noop', 'deadline', VARIANT, VARIANT2, 'bfq']
const deterministic = {
  name: 'deterministic',
  device: { preset: 'nullblk' },
  workload: {
    processes: [
      { name: 'reader', type: 'dd', params: { op: 'read', file: 'f', bs: '1M', count: 64 } },
      { name: 'writer', type: 'dd', params: { op: 'write', file: 'g', bs: '1M', count: 8, loop: true } },
    ],
    stop: { processes: ['reader'], maxSeconds: 5 },
  },
  schedulers: [
    'noop',
    'deadline',
    { name: 'deadline', label: VARIANT, tunables: { fifo_batch: 1 } },
    { name: 'deadline', label: VARIANT2, tunables: { fifo_batch: 4 } },
    'bfq',
  ],
  repetitions: 3,
}
const random = {
  name: 'random',
  device: { preset: 'ssd-sata-mlc' },
  workload: {
    processes: [{ name: 'rr', type: 'random-read', params: { size: '64M', count: 200, direct: true } }],
  },
  schedulers: ['noop', 'deadline'],
  repetitions: 3,
}

/** The scheduler of a row of the deterministic experiment. */
const schedulerOfRow = (label: string): string => (label.startsWith('deadline') ? 'deadline' : label)

/** The page's getComputedStyle (the tests' types have no DOM). */
type Styles = { getComputedStyle(el: unknown): { backgroundColor: string } }

describe.runIf(chromiumAvailable())('scheduler colours and repetition statistics in Chromium', () => {
  let host: LabHost
  let browser: Browser
  let page: Page
  const errors: string[] = []

  const idle = () => idleOf(page)

  const chartsIn = (rgb: number[]) => chartsInOf(page, rgb)

  /** Full-page pictures at 1440 and 1024 wide, light and dark; the theme is left light. */
  async function shots(name: string): Promise<void> {
    await page.addStyleTag({ content: 'footer { position: static !important }' })
    for (const width of [1440, 1024])
      for (const theme of ['light', 'dark']) {
        await page.setViewportSize({ width, height: 900 })
        await page.getByLabel('Theme').selectOption(theme)
        await chartsIn(theme === 'dark' ? [0x1f, 0x22, 0x27] : [255, 255, 255])
        await idle()
        await page.screenshot({ path: join(RESULTS, `stats-${name}-${width}-${theme}.png`), fullPage: true })
      }
    await page.getByLabel('Theme').selectOption('light')
    await page.setViewportSize({ width: 1440, height: 900 })
  }

  /** Each series' name and colour of a chart, as it drew them (data-series on its canvas). */
  async function series(chart: string): Promise<{ label: string; colour: string | string[] }[]> {
    const canvas = page.locator(`[data-chart="${chart}"] canvas`)
    await expect.poll(() => canvas.getAttribute('data-series'), { timeout: 15_000 }).toBeTruthy()
    return JSON.parse((await canvas.getAttribute('data-series'))!)
  }

  const runSpec = (doc: unknown): Promise<void> => runNewSpec(page, doc)

  beforeAll(async () => {
    ;({ host, browser, page } = await openLabPage(errors, {
      viewport: { width: 1440, height: 900 },
      acceptDownloads: true,
    }))
  }, 180_000)

  afterAll(() => closeLabPage(host, browser))

  it('says a deterministic repeated run had identical repetitions, instead of a CI of ± 0', async () => {
    await runSpec(deterministic)
    const table = page.getByRole('table', { name: 'Comparison' })
    for (const l of LABELS) await table.locator(`tr[data-label="${l}"] td.num`).first().waitFor()
    const notice = page.getByTestId('identical-repetitions')
    await expect(notice.textContent()).resolves.toContain('Identical repetitions (deterministic workload)')
    await notice.getByText('Why, and how to vary the runs').click()
    await expect(notice.textContent()).resolves.toMatch(/seed of its own.*seed, 1,/s)
    // no interval anywhere in the table: not "± 0", not "± 4.3e-14"
    const cells = await table.locator('td.num').allTextContents()
    expect(cells.length).toBeGreaterThan(LABELS.length * 5)
    for (const c of cells) expect(c).not.toContain('±')
    await expect(table.locator('td[data-metric="reader:MBps"]').first().getAttribute('title')).resolves.toBe(
      'the same in all 3 repetitions',
    )
  }, 150_000)

  it('marks "best" only where a direction means something: not the looping writer’s time', async () => {
    const table = page.getByRole('table', { name: 'Comparison' })
    // the reader reads 64 MB: shorter is better; bfq's path is slower here, the others tie
    const best = (id: string) =>
      table
        .locator(`td[data-metric="${id}"].best`)
        .evaluateAll((els) => els.map((e) => e.closest('tr')!.dataset.label))
    await expect(best('reader:seconds')).resolves.toEqual(['noop', 'deadline', VARIANT, VARIANT2])
    await expect(best('reader:MBps')).resolves.toEqual(['noop', 'deadline', VARIANT, VARIANT2])
    // the writer loops until the reader is done: its time is the run's, for every scheduler
    await expect(table.locator('td[data-metric="writer:seconds"]').count()).resolves.toBe(LABELS.length)
    await expect(table.locator('td[data-metric="writer:seconds"].best').count()).resolves.toBe(0)
    await expect(best('writer:MBps')).resolves.toEqual(['noop', 'deadline', VARIANT, VARIANT2])
    await expect(best('run:seconds')).resolves.toEqual([])
    // nothing written by any: all alike, none better
    await expect(best('dev:writeMBps')).resolves.toEqual([])
  })

  it('gives each scheduler one colour in the table, the progress and every chart', async () => {
    // the rows shown together: each as the palette colours it, the second of two variants that ask
    // for one shade on the next free one
    const palette = paletteFor(LABELS.map((label) => ({ label, scheduler: schedulerOfRow(label) })))
    const expected = Object.fromEntries(LABELS.map((l) => [l, palette(l, schedulerOfRow(l))]))
    expect(schedulerColour(VARIANT2)).toBe(schedulerColour(VARIANT))
    // the palette's, by name, whatever the row's place: deadline is second here, orange as always
    expect(expected.deadline).toBe(SCHEDULER_COLOURS.deadline)
    expect(expected.noop).toBe(SCHEDULER_COLOURS.noop)
    expect(expected[VARIANT]).not.toBe(SCHEDULER_COLOURS.deadline)
    expect(new Set(Object.values(expected)).size).toBe(LABELS.length)
    const swatch = (where: string) =>
      page
        .locator(where)
        .evaluate((el) => (globalThis as unknown as Styles).getComputedStyle(el).backgroundColor)
    for (const l of LABELS) {
      await expect(swatch(`tr[data-label="${l}"] .swatch`), `table ${l}`).resolves.toBe(rgb(expected[l]))
    }
    const progress = await page
      .locator('.progress .row .name')
      .evaluateAll((els) =>
        els.map((e) => [
          e.textContent ?? '',
          (globalThis as unknown as Styles).getComputedStyle(e.querySelector('.swatch')!).backgroundColor,
        ]),
      )
    for (const [name, colour] of progress) {
      const label = LABELS.filter((l) => name.startsWith(l)).sort((a, b) => b.length - a.length)[0]
      expect(colour, name).toBe(rgb(expected[label]))
    }
    const bars = await series('process-throughput')
    const cdf = await series('latency-cdf')
    const over = await series('throughput')
    for (const l of LABELS) {
      expect(bars.find((s) => s.label === l)?.colour, `bars ${l}`).toBe(expected[l])
      expect(cdf.find((s) => s.label === l)?.colour, `cdf ${l}`).toBe(expected[l])
      expect(over.find((s) => s.label === `${l} read`)?.colour, `throughput ${l}`).toBe(expected[l])
      const sectors = await series(`sectors-${l}`)
      expect(sectors.find((s) => s.label === 'read')?.colour, `sectors ${l}`).toBe(expected[l])
    }
    // the Why panel's stages too (its time split is coloured by part, not by scheduler)
    const stage = await series('why-stage-q2c')
    for (const l of LABELS) expect(stage.find((s) => s.label === l)?.colour, `why ${l}`).toBe(expected[l])
    await shots('results')
    // and on the setup page, beside each scheduler entry
    await page.getByRole('button', { name: 'Setup', exact: true }).click()
    for (const l of LABELS)
      await expect(swatch(`[data-scheduler="${l}"] .swatch`), `setup ${l}`).resolves.toBe(rgb(expected[l]))
    await page
      .locator('[data-scheduler="noop"]')
      .locator('xpath=..')
      .screenshot({ path: join(RESULTS, 'stats-setup-schedulers.png') })
    await page.getByRole('button', { name: 'Results', exact: true }).click()
  }, 120_000)

  it('keeps the colours in the saved session’s HTML report', async () => {
    await page.keyboard.press('Control+s')
    const dialog = page.getByRole('dialog')
    await dialog.waitFor()
    await dialog.locator('input[name="session-name"]').fill('deterministic')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('status').filter({ hasText: 'Saved “deterministic”' }).waitFor()
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-export="html"]').click(),
    ])
    const report = await readFile((await download.path())!, 'utf8')
    const palette = paletteFor(LABELS.map((label) => ({ label, scheduler: schedulerOfRow(label) })))
    for (const l of LABELS)
      expect(report, l).toContain(`background:${palette(l, schedulerOfRow(l))}"></span>${l}`)
    expect(report).toContain('Identical repetitions (deterministic workload)')
    expect(report).not.toMatch(/\d ± \d/)
    await writeFile(join(RESULTS, 'stats-report.html'), report)
    const view = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    await view.setContent(report)
    // a figure is one line (a latency cell's "p50 / p95 / p99 / p99.9 / max" too): a wide table
    // scrolls sideways in its box instead of folding numbers over four lines
    type Cell = { getBoundingClientRect(): { height: number }; textContent: string }
    type Styled = { getComputedStyle(el: unknown): { lineHeight: string } }
    const folded = await view
      .locator('td.n')
      .evaluateAll((tds) =>
        (tds as unknown as Cell[])
          .filter(
            (td) =>
              td.getBoundingClientRect().height >
              1.8 * parseFloat((globalThis as unknown as Styled).getComputedStyle(td).lineHeight),
          )
          .map((td) => td.textContent),
      )
    expect(folded).toEqual([])
    await view.screenshot({ path: join(RESULTS, 'stats-report-1440.png'), fullPage: true })
    await view.setViewportSize({ width: 1024, height: 900 })
    await view.screenshot({ path: join(RESULTS, 'stats-report-1024.png'), fullPage: true })
    await view.close()
  })

  it('colours the run sets in the library as in the results, and charts the metric the workload makes sense of', async () => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Library' }).click()
    const hit = page.locator('article.hit[data-session="deterministic"]')
    await hit.waitFor()
    // the second variant without the first: it keeps its results page's shade, not the one it asks for
    const PICKS = ['deadline', VARIANT2, 'bfq']
    for (const l of PICKS)
      await page.getByRole('checkbox', { name: `Pick deterministic: ${l}`, exact: true }).check()
    // the session's sets as its results page shows them: the two variants on shades of their own
    const palette = paletteFor(LABELS.map((label) => ({ label, scheduler: schedulerOfRow(label) })))
    for (const l of LABELS)
      await expect(
        hit
          .locator(`tr[data-set="result/${l}"] .swatch`)
          .evaluate((el) => (globalThis as unknown as Styles).getComputedStyle(el).backgroundColor),
        l,
      ).resolves.toBe(rgb(palette(l, schedulerOfRow(l))))
    await expect(
      hit
        .locator('tr[data-set="result/deadline"] .swatch')
        .evaluate((el) => (globalThis as unknown as Styles).getComputedStyle(el).backgroundColor),
    ).resolves.toBe(rgb(SCHEDULER_COLOURS.deadline))
    await page.getByRole('button', { name: 'Compare 3 →' }).click()
    const table = page.getByRole('table', { name: 'Comparison of run sets' })
    await table.waitFor()
    const shown = PICKS.map((l) => palette(l, schedulerOfRow(l)))
    expect(shown[1]).not.toBe(schedulerColour(VARIANT2))
    for (const [i, l] of PICKS.entries())
      await expect(
        table
          .locator(`tr[data-row="deterministic: ${l}"] .swatch`)
          .evaluate((el) => (globalThis as unknown as Styles).getComputedStyle(el).backgroundColor),
        l,
      ).resolves.toBe(rgb(shown[i]))
    // identical repetitions: the library prints no interval either
    for (const c of await table.locator('td.num .value').allTextContents()) expect(c).not.toContain('±')
    // a fixed-size reader beside a looping writer: the reader's time first
    await expect(page.getByLabel('Metric to chart').inputValue()).resolves.toBe('proc:reader:seconds')
    await expect(page.getByTestId('direction').textContent()).resolves.toBe('lower is better')
    const bars = await series('library-compare')
    expect(bars[0].colour).toEqual(shown)
    // and in the list of picks
    for (const [i, l] of PICKS.entries())
      await expect(
        page
          .locator(`section.picked li[data-set="deterministic: ${l}"] .swatch`)
          .evaluate((el) => (globalThis as unknown as Styles).getComputedStyle(el).backgroundColor),
        `pick ${l}`,
      ).resolves.toBe(rgb(shown[i]))
    await shots('library')
    await page.getByLabel('Metric to chart').selectOption('proc:writer:seconds')
    await expect(page.getByTestId('direction').textContent()).resolves.toContain('neither way is better')
  }, 60_000)

  it('keeps the intervals of a workload with randomness, at their significant digits', async () => {
    await runSpec(random)
    const table = page.getByRole('table', { name: 'Comparison' })
    for (const l of ['noop', 'deadline'])
      await table.locator(`tr[data-label="${l}"] td.num`).first().waitFor()
    await expect(page.getByTestId('identical-repetitions').count()).resolves.toBe(0)
    const cell = await table
      .locator('tr[data-label="noop"] td[data-metric="rr:MBps"] span')
      .first()
      .textContent()
    const m = /^([\d,.]+) ± ([\d,.]+)$/.exec(cell ?? '')
    expect(m, cell ?? '').not.toBeNull()
    // one or two significant digits in the interval, the mean to the same decimal place
    const digits = m![2].replace(/[,.]/g, '').replace(/^0+/, '')
    expect(digits.length).toBeGreaterThanOrEqual(1)
    expect(digits.length).toBeLessThanOrEqual(2)
    const decimals = (s: string) => (s.includes('.') ? s.split('.')[1].length : 0)
    expect(decimals(m![1])).toBe(decimals(m![2]))
  }, 120_000)

  it('charts a time-based job’s throughput in the library, not its time', async () => {
    // the random runs are not saved: the new experiment replaces them when told to
    page.once('dialog', (d) => void d.accept())
    // a reader looping for a second: its time is the run's, its rate is the figure
    await runSpec({
      name: 'timed',
      device: { preset: 'nullblk' },
      workload: {
        processes: [
          { name: 'looper', type: 'dd', params: { op: 'read', file: 'f', bs: '1M', count: 8, loop: true } },
        ],
        stop: { maxSeconds: 1 },
      },
      schedulers: ['noop', 'deadline'],
    })
    await saveSession(page, 'timed')
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Library' }).click()
    await page.getByRole('tab', { name: 'Sessions', exact: true }).click()
    // the picks of the earlier test put back
    for (const l of ['deadline', VARIANT2, 'bfq'])
      await page.getByRole('checkbox', { name: `Pick deterministic: ${l}`, exact: true }).uncheck()
    for (const l of ['noop', 'deadline'])
      await page.getByRole('checkbox', { name: `Pick timed: ${l}`, exact: true }).check()
    await page.getByRole('button', { name: 'Compare 2 →' }).click()
    await page.getByRole('table', { name: 'Comparison of run sets' }).waitFor()
    await expect(page.getByLabel('Metric to chart').inputValue()).resolves.toBe('proc:looper:MBps')
    await expect(page.getByTestId('direction').textContent()).resolves.toBe('higher is better')
  }, 120_000)

  it('logged no errors in the page', () => {
    expect(errors).toEqual([])
  })
})
