// End to end: six variants of one scheduler shown together, in Chromium through the browser host.
// The palette has three shades of deadline's orange that keep 3:1 on both themes; the variants past
// them take a shade again with a mark (src/shared/report/marks.ts): in the table, the setup page
// and the library a swatch cut to the mark's shape, in the charts a dashed line with markers (a
// pattern on bars), in the HTML report a dashed line. No two rows shown together look the same.
// Screenshots go to test-results/marks-*.png.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MARKS } from '../../src/shared/report/marks'
import { stylesFor } from '../../src/shared/report/palette'
import { chromiumAvailable, RESULTS } from './browser'
import { closeLabPage, openLabPage, runNewSpec, saveSession } from './lab-page'
import { idle } from './page-waits'
import { rgb } from './swatches'
import type { LabHost } from './lab-host'

const VARIANTS = [1, 2, 4, 8, 16, 32].map((b) => `deadline (fifo_batch=${b})`)
const LABELS = ['noop', 'deadline', ...VARIANTS]
const spec = {
  name: 'six variants',
  device: { preset: 'nullblk' },
  workload: {
    processes: [{ name: 'reader', type: 'dd', params: { op: 'read', file: 'f', bs: '1M', count: 16 } }],
  },
  schedulers: [
    'noop',
    'deadline',
    ...VARIANTS.map((label, i) => ({
      name: 'deadline',
      label,
      tunables: { fifo_batch: 2 ** [0, 1, 2, 3, 4, 5][i] },
    })),
  ],
}
const schedulerOf = (l: string): string => (l.startsWith('deadline') ? 'deadline' : l)
const style = stylesFor(LABELS.map((label) => ({ label, scheduler: schedulerOf(label) })))
const expected = Object.fromEntries(LABELS.map((l) => [l, style(l, schedulerOf(l))]))

/** A swatch's look as the page draws it: its computed background and clip-path. */
type Look = { background: string; clip: string }
type Styles = { getComputedStyle(el: unknown): { backgroundColor: string; clipPath: string } }
const lookOf = (el: unknown): Look => {
  const s = (globalThis as unknown as Styles).getComputedStyle(el)
  return { background: s.backgroundColor, clip: s.clipPath }
}

/** Whether an element's text is cut: wider than its box. */
const cut = (l: Locator): Promise<boolean> =>
  l.evaluate((e) => {
    const el = e as unknown as { scrollWidth: number; clientWidth: number }
    return el.scrollWidth > el.clientWidth + 1
  })

describe.runIf(chromiumAvailable())('variants of one scheduler past its shades, in Chromium', () => {
  let host: LabHost
  let browser: Browser
  let page: Page
  const errors: string[] = []

  const swatch = (where: string): Promise<Look> => page.locator(where).evaluate(lookOf)

  /** Each series of a chart as it drew it (data-series on its canvas). */
  async function series(chart: string): Promise<{ label: string; colour: string; mark?: number }[]> {
    const canvas = page.locator(`[data-chart="${chart}"] canvas`)
    await expect.poll(() => canvas.getAttribute('data-series'), { timeout: 15_000 }).toBeTruthy()
    return JSON.parse((await canvas.getAttribute('data-series'))!)
  }

  /** Whether a swatch shows a row's look: its colour, and its mark's shape or none. */
  function expectLook(look: Look, label: string, where: string): void {
    const { colour, mark } = expected[label]
    expect(look.background, `${where} ${label}`).toBe(rgb(colour))
    if (mark === 0) expect(look.clip, `${where} ${label}`).toBe('none')
    else expect(look.clip, `${where} ${label}`).toMatch(/^(polygon|circle)\(/)
  }

  beforeAll(async () => {
    ;({ host, browser, page } = await openLabPage(errors, {
      viewport: { width: 1440, height: 900 },
      acceptDownloads: true,
    }))
    await runNewSpec(page, spec)
  }, 180_000)

  afterAll(() => closeLabPage(host, browser))

  it('gives the six variants six looks: three shades, then shades with a mark', () => {
    const looks = LABELS.map((l) => `${expected[l].colour}/${expected[l].mark}`)
    expect(new Set(looks).size).toBe(LABELS.length)
    expect(VARIANTS.filter((l) => expected[l].mark > 0)).toHaveLength(3)
  })

  it('shows each row’s look in the table and on the setup page, no two alike', async () => {
    const shown: string[] = []
    for (const l of LABELS) {
      const look = await swatch(`tr[data-label="${l}"] .swatch`)
      expectLook(look, l, 'table')
      shown.push(`${look.background} ${look.clip}`)
    }
    expect(new Set(shown).size).toBe(LABELS.length)
    await page.addStyleTag({ content: 'footer { position: static !important }' })
    await idle(page)
    await page.screenshot({ path: join(RESULTS, 'marks-results-1440.png'), fullPage: true })
    await page.getByRole('button', { name: 'Setup', exact: true }).click()
    for (const l of LABELS) expectLook(await swatch(`[data-scheduler="${l}"] .swatch`), l, 'setup')
    // at 1024 px each variant's label shows whole in its field (it was cut at 11em)
    await page.setViewportSize({ width: 1024, height: 700 })
    for (const l of VARIANTS)
      await expect(
        cut(page.locator(`[data-scheduler="${l}"] input.label`)),
        `setup label ${l}`,
      ).resolves.toBe(false)
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.getByRole('button', { name: 'Results', exact: true }).click()
  }, 60_000)

  it('draws each variant’s mark in every chart: dash and markers on lines, a pattern on bars', async () => {
    for (const chart of ['latency-cdf', 'throughput', 'process-throughput']) {
      const drawn = await series(chart)
      const looks = new Set<string>()
      for (const l of LABELS) {
        const s = drawn.find((x) => x.label === l || x.label === `${l} read`)
        expect(s, `${chart} ${l}`).toBeDefined()
        expect(s!.colour, `${chart} ${l}`).toBe(expected[l].colour)
        expect(s!.mark ?? 0, `${chart} ${l}`).toBe(expected[l].mark)
        looks.add(`${s!.colour}/${s!.mark ?? 0}`)
      }
      expect(looks.size, chart).toBe(LABELS.length)
    }
  }, 60_000)

  it('keeps the looks in the HTML report and in the library', async () => {
    await saveSession(page, 'six variants')
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-export="html"]').click(),
    ])
    const report = await readFile((await download.path())!, 'utf8')
    for (const l of LABELS) {
      const { colour, mark } = expected[l]
      expect(report, l).toContain(
        `background:${colour}${mark ? `;clip-path:${MARKS[mark].clip}` : ''}"></span>${l}`,
      )
    }
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Library' }).click()
    const hit = page.locator('article.hit[data-session="six variants"]')
    await hit.waitFor()
    for (const l of LABELS)
      expectLook(await hit.locator(`tr[data-set="result/${l}"] .swatch`).evaluate(lookOf), l, 'library')
    // at 1024 px each run set's name shows whole (a variant's was cut to "deadline (…")
    await page.setViewportSize({ width: 1024, height: 700 })
    for (const l of LABELS)
      await expect(cut(hit.locator(`tr[data-set="result/${l}"] th`)), `library ${l}`).resolves.toBe(false)
    await page.setViewportSize({ width: 1440, height: 900 })
    for (const l of LABELS)
      await page.getByRole('checkbox', { name: `Pick six variants: ${l}`, exact: true }).check()
    await page.getByRole('button', { name: `Compare ${LABELS.length} →` }).click()
    const table = page.getByRole('table', { name: 'Comparison of run sets' })
    await table.waitFor()
    for (const l of LABELS)
      expectLook(
        await table.locator(`tr[data-row="six variants: ${l}"] .swatch`).evaluate(lookOf),
        l,
        'compare',
      )
    const bars = await series('library-compare')
    expect(bars[0].colour).toEqual(LABELS.map((l) => expected[l].colour))
    await idle(page)
    await page.screenshot({ path: join(RESULTS, 'marks-library-1440.png'), fullPage: true })
  }, 90_000)

  it('logged no errors in the page', () => {
    expect(errors).toEqual([])
  })
})
