// End to end: why the schedulers differ, in Chromium through the browser host (issue 14). The
// flagship (a cat of 100 MB while dd writes, 2003) run under deadline and anticipatory: the
// results' Why panel explains the reader — the stop process — naming deceptive idleness, with the
// same words explain() finds in the runs the lab sent; a bar per scheduler stacked by the parts of
// the reader's time in their colours; the stages' distributions per scheduler; the decisions
// table; the process picker switches all of it to the writer. Then the gallery's verdict of the
// same entry: the explanation, ✓ for the published mechanism, and the publication's point.
// Pictures at 1440×900 and 1024×700, light and dark, go to test-results/why-*.png.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { explain } from '../../src/shared/experiment/explain'
import type { RunResult } from '../../src/shared/experiment/result'
import type { LabEvent } from '../../src/shared/api/lab-events'
import { TIME_PART_COLOURS } from '../../src/shared/report/palette'
import { decisionRows, MECHANISM_NAME, timeRows, usedParts } from '../../src/shared/report/why-figures'
import { TIME_PART_NAME } from '../../src/shared/report/why-figures'
import { num } from '../../src/shared/util/people-numbers'
import { chromiumAvailable, RESULTS } from './browser'
import { closeLabPage, openLabPage } from './lab-page'
import type { LabHost } from './lab-host'
import { idle } from './page-waits'

const ENTRY = 'streaming-read-under-write-2003'
const LABELS = ['deadline', 'anticipatory']
const flagship = {
  ...(JSON.parse(readFileSync(join(import.meta.dirname, `../../examples/${ENTRY}.json`), 'utf8')) as Record<
    string,
    unknown
  >),
  schedulers: LABELS,
}

describe.runIf(chromiumAvailable())('why, in Chromium: the Why panel and the gallery’s explanation', () => {
  let host: LabHost
  let browser: Browser
  let page: Page
  const errors: string[] = []
  const events: LabEvent[] = []
  let runs: RunResult[] = []

  const why = () => page.getByTestId('why')
  const card = (file: string) => page.locator(`[data-chart="${file}"]`)
  /** What a chart drew: its series (name, colour) and its axes (type, ticks), as useChart records them. */
  async function drawn(c: Locator): Promise<{
    series: { label: string; colour: string }[]
    scales: Record<string, { type: string; ticks: string[] }>
  }> {
    await c.locator('.waiting').waitFor({ state: 'detached', timeout: 15_000 })
    const canvas = c.locator('canvas')
    return {
      series: JSON.parse((await canvas.getAttribute('data-series')) ?? '[]'),
      scales: JSON.parse((await canvas.getAttribute('data-scales')) ?? '{}'),
    }
  }

  /** The window at 1440×900 and 1024×700, light and dark, from `what`'s top; light after. */
  async function shots(name: string, what: Locator): Promise<void> {
    for (const [width, height] of [
      [1440, 900],
      [1024, 700],
    ])
      for (const theme of ['light', 'dark']) {
        await page.setViewportSize({ width, height })
        await page.getByLabel('Theme').selectOption(theme)
        await idle(page)
        await page.waitForTimeout(400)
        // its top below the page's header
        await what.evaluate((e) => {
          const g = globalThis as unknown as { scrollBy(x: number, y: number): void }
          g.scrollBy(
            0,
            (e as unknown as { getBoundingClientRect(): { top: number } }).getBoundingClientRect().top - 90,
          )
        })
        await page.screenshot({ path: join(RESULTS, `why-${name}-${width}-${theme}.png`) })
      }
    await page.getByLabel('Theme').selectOption('light')
    await page.setViewportSize({ width: 1440, height: 900 })
  }

  beforeAll(async () => {
    ;({ host, browser, page } = await openLabPage(errors, { viewport: { width: 1440, height: 900 } }))
    host.lab.on((e) => events.push(e))
  }, 180_000)

  afterAll(() => closeLabPage(host, browser))

  it('explains the flagship’s reader: deadline against anticipatory, deceptive idleness', async () => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Setup' }).click()
    await page.getByRole('tab', { name: 'JSON' }).click()
    await page.getByLabel('Spec JSON').fill(JSON.stringify(flagship, null, 2))
    await page.getByRole('button', { name: 'Apply' }).click()
    await page.getByText('The spec is valid.').waitFor()
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await page.getByText(/Done in/).waitFor({ timeout: 120_000 })
    // the runs the page was sent
    runs = events.flatMap((e) => (e.type === 'run:job-done' ? [e.result] : []))
    expect(runs.map((r) => r.label).sort()).toEqual([...LABELS].sort())

    // the stop process by default
    await expect(why().getAttribute('data-process')).resolves.toBe('reader')
    await expect(why().getByLabel('Why of process').inputValue()).resolves.toBe('reader')
    const e = explain(runs, 'reader')!
    expect(e).toMatchObject({ worst: 'deadline', best: 'anticipatory', mechanism: 'deceptive-idleness' })
    const shown = why().getByTestId('why-explanation')
    await expect(shown.count()).resolves.toBe(1)
    await expect(shown.getAttribute('data-mechanism')).resolves.toBe('deceptive-idleness')
    await expect(shown.locator('.mechanism').textContent()).resolves.toBe('deceptive idleness')
    await expect(shown.locator('.text').textContent()).resolves.toBe(e.text)
    expect(e.text).toContain('deceptive idleness')
    // nothing missing: both are simulated
    await expect(why().getByTestId('why-missing').count()).resolves.toBe(0)

    // a bar per scheduler, stacked by the parts of the reader's time, each part in its colour
    const rows = timeRows(runs, LABELS, 'reader')
    // (the chart redraws as each run's result arrives, after the run's end shows: wait for both)
    await expect
      .poll(async () => (await drawn(card('why-time'))).scales.y?.ticks, { timeout: 10_000 })
      .toEqual(LABELS)
    const time = await drawn(card('why-time'))
    expect(time.scales.y.ticks).toEqual(LABELS)
    expect(time.scales.x.type).toBe('linear')
    expect(time.series).toEqual(
      usedParts(rows).map((p) => ({ label: TIME_PART_NAME[p], colour: TIME_PART_COLOURS[p] })),
    )
    expect(time.series.map((s) => s.label)).toContain('reads')
    await expect(card('why-time').locator('.title').textContent()).resolves.toBe(
      "Where the reader's time went",
    )
    // the stages: a distribution per scheduler on a log axis, in the schedulers' colours (the
    // table's); Q2G is all zero here: a line says so, no card of lines on the axis' floor
    for (const s of ['i2d', 'd2c', 'q2c']) {
      const st = await drawn(card(`why-stage-${s}`))
      expect(st.series.map((x) => x.label)).toEqual(LABELS)
      expect(st.scales.x.type).toBe('logarithmic')
      for (const x of st.series) {
        const swatch = await page
          .locator(`table[aria-label="Comparison"] tr[data-label="${x.label}"] .swatch`)
          .first()
          .evaluate((el) => (el as unknown as { style: { background: string } }).style.background)
        expect(swatch.replace(/\s/g, '')).toBe(hexToRgb(x.colour))
      }
    }
    await expect(card('why-stage-q2g').count()).resolves.toBe(0)
    await expect(why().getByTestId('why-quiet-stages').textContent()).resolves.toMatch(
      /^\s*Q2G: no request of the reader spent any time in this stage under any scheduler/,
    )
    // the decisions: deadline moved on while the reader looked idle, anticipatory waited for it
    const decisions = decisionRows(runs, LABELS, 'reader')
    const table = why().getByTestId('why-decisions')
    for (const d of decisions) {
      const tr = table.locator(`tr[data-row="${d.label}"]`)
      await expect(tr.locator('[data-col="batches"]').textContent()).resolves.toBe(num(d.batches))
      await expect(tr.locator('[data-col="deceived"]').textContent()).resolves.toBe(num(d.deceived))
      await expect(tr.locator('[data-col="waits"]').textContent()).resolves.toBe(num(d.waits))
    }
    expect(decisions[0].deceived!).toBeGreaterThan(decisions[1].deceived!)
    await shots('results', why())
  }, 200_000)

  it('switches every part of the panel to the process picked', async () => {
    await why().getByLabel('Why of process').selectOption('writer')
    await expect(why().getAttribute('data-process')).resolves.toBe('writer')
    const e = explain(runs, 'writer')!
    await expect(why().getByTestId('why-explanation').locator('.text').textContent()).resolves.toBe(e.text)
    await expect(card('why-time').locator('.title').textContent()).resolves.toBe(
      "Where the writer's time went",
    )
    // its own time split: a writer blocked on writes or throttled, not on reads
    const rows = timeRows(runs, LABELS, 'writer')
    await expect
      .poll(async () => (await drawn(card('why-time'))).series.map((s) => s.label))
      .toEqual(usedParts(rows).map((p) => TIME_PART_NAME[p]))
    const decisions = decisionRows(runs, LABELS, 'writer')
    await expect(why().locator('tr[data-row="deadline"] [data-col="requests"]').textContent()).resolves.toBe(
      num(decisions[0].requests),
    )
    // in % of its time: each bar ends at 100
    await why().getByLabel('Time split in').selectOption('share')
    await expect.poll(async () => (await drawn(card('why-time'))).scales.x.ticks.at(-1)).toBe('100')
    await shots('writer', why())
    await why().getByLabel('Time split in').selectOption('seconds')
    await why().getByLabel('Why of process').selectOption('reader')
    await expect(why().getAttribute('data-process')).resolves.toBe('reader')
  })

  it('explains the gallery’s reproduction: ✓ it names the published mechanism, with the publication’s point', async () => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Start' }).click()
    await page
      .locator(`[data-testid="gallery-entry"][data-entry="${ENTRY}"]`)
      .getByRole('button', { name: `Reproduce “${ENTRY}”` })
      .click()
    await page.getByTestId('reproduce-verdict').waitFor({ timeout: 180_000 })
    const done = events.find((x) => x.type === 'reproduce:done')
    const ex = done?.type === 'reproduce:done' ? done.report.explanation : undefined
    expect(ex).toMatchObject({
      mechanism: 'deceptive-idleness',
      expected: 'deceptive-idleness',
      matches: true,
    })
    const panel = page.getByTestId('reproduce-why')
    await expect(panel.getAttribute('data-matches')).resolves.toBe('true')
    await expect(panel.getAttribute('data-mechanism')).resolves.toBe('deceptive-idleness')
    await expect(panel.getByTestId('reproduce-why-verdict').textContent()).resolves.toMatch(
      new RegExp(`^\\s*✓\\s+Names ${MECHANISM_NAME['deceptive-idleness']}: the mechanism the publication`),
    )
    await expect(panel.getByTestId('reproduce-why-text').textContent()).resolves.toBe(ex!.text)
    await expect(panel.getByTestId('reproduce-why-about').textContent()).resolves.toBe(
      `Published: ${ex!.about}`,
    )
    await expect(panel.textContent()).resolves.toContain(`${ex!.worst} against ${ex!.best}`)
    // an entry of one variant names its runs by scheduler alone, in the Why and the figures: no
    // "main/deadline", no column of "main"
    expect([ex!.worst, ex!.best]).toEqual(['deadline', 'anticipatory'])
    await expect(panel.textContent()).resolves.not.toContain('main/')
    await expect(page.locator('[data-testid="figures"] thead th').allTextContents()).resolves.toEqual([
      'scheduler',
      'figure',
      'published',
      'simulated',
      'unit',
      'sim ÷ pub',
    ])
    await shots('gallery', panel)
  }, 240_000)

  it('logged no errors in the page', () => {
    expect(errors).toEqual([])
  })
})

/** `#rrggbb` as the page writes a style's colour: rgb(r,g,b). */
function hexToRgb(hex: string): string {
  const n = parseInt(hex.slice(1), 16)
  return `rgb(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255})`
}
