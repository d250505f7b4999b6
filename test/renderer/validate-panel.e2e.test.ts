// End to end: a validation's report in the Devices view, in Chromium through the browser host,
// without running one (that needs root and a device: devices.e2e.test.ts): a recorded report
// (`iosched-lab validate --quick …` on a scratch loop device) is handed to the page's validation
// store, as the report event does. Each scheduler in its palette colour, as in the results' table
// and charts; a ranking that differs only within the kernel's noise says so; at 1024 × 700 nothing
// scrolls sideways. Pictures at 1440 and 1024, light and dark, go to test-results/validate-*.png.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { schedulerColour } from '../../src/shared/report/palette'
import type { ValidateReport } from '../../src/shared/validate/report'
import { chromiumAvailable, RESULTS } from './browser'
import { closeLabPage, openLabPage } from './lab-page'
import { rgb, swatchColours } from './swatches'
import type { LabHost } from './lab-host'

const recorded = JSON.parse(
  readFileSync(join(import.meta.dirname, 'fixtures/validate-quick-loop.json'), 'utf8'),
) as ValidateReport
/** With the fingerprint's sweep measured again afterwards (two points of a full validation's). */
const report: ValidateReport = {
  ...recorded,
  // judged on the fingerprint fitted again over the validation's span; what the start's fit gave
  preset: { ...recorded.preset, bracketed: { passesAfter: 3 } },
  startFit: {
    summary: { ...recorded.summary, separablePairs: 4, orderedSame: 3, medianCdfRelative: 0.2461 },
    worstResidual: 0.1786,
  },
  drift: {
    seconds: 3,
    worst: 0.3215,
    points: [
      {
        name: 'qd1-randread',
        fingerprint: { iops: 14635.7, p50Ms: 0.059391 },
        now: { iops: 15197.3, p50Ms: 0.057343 },
        change: { iops: 0.038377, p50: -0.034483 },
        noise: 0.4736,
        beyondNoise: false,
      },
      {
        name: 'qd32-randwrite',
        fingerprint: { iops: 104807, p50Ms: 0.299 },
        now: { iops: 82490, p50Ms: 0.36 },
        change: { iops: -0.21293, p50: 0.20548 },
        noise: 0.05,
        beyondNoise: true,
      },
    ],
  },
}

type Doc = { documentElement: { scrollWidth: number } }

describe.runIf(chromiumAvailable())('a validation report in the Devices view, in Chromium', () => {
  let host: LabHost
  let browser: Browser
  let page: Page
  const errors: string[] = []

  beforeAll(async () => {
    ;({ host, browser, page } = await openLabPage(errors, { viewport: { width: 1440, height: 900 } }))
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Devices' }).click()
    await page.getByTestId('validate-panel').waitFor()
    await page.evaluate((r) => {
      type Store = { report: unknown }
      const app = (
        globalThis as unknown as {
          document: {
            querySelector(s: string): {
              __vue_app__: { config: { globalProperties: { $pinia: { _s: Map<string, Store> } } } }
            }
          }
        }
      ).document.querySelector('#app').__vue_app__
      app.config.globalProperties.$pinia._s.get('validation')!.report = r
    }, report)
    await page.getByTestId('validate-report').waitFor()
  }, 180_000)

  afterAll(() => closeLabPage(host, browser))

  it('draws each scheduler in its palette colour, in the cells and in the pairs', async () => {
    const seen = await swatchColours(page.locator('[data-testid="validate-report"] tbody tr[data-cell] th'))
    expect(seen.length).toBeGreaterThan(0)
    for (const [scheduler, colour] of seen) expect(colour, scheduler).toBe(rgb(schedulerColour(scheduler)))
    const pairs = page.locator('[data-pair] .swatch')
    await expect(pairs.count()).resolves.toBe(2 * (await page.locator('[data-pair]').count()))
  })

  it('says when a different ranking is within the kernel’s noise', async () => {
    const w = report.workloads[0]
    const ranking = page.locator(`[data-workload="${w.id}"] .ranking`)
    await expect(ranking.getAttribute('data-ranking')).resolves.toBe('different')
    await expect(ranking.textContent()).resolves.toContain(
      'a different order, but the kernel’s is within the noise: it separated none of these schedulers',
    )
  })

  it('signs the machine’s changes since the fingerprint as the library signs differences', async () => {
    const cells = (name: string) => page.locator(`[data-drift="${name}"] td`).allTextContents()
    const [, , iops, , , p50] = await cells('qd1-randread')
    expect([iops, p50]).toEqual(['+3.84 %', '−3.45 %'])
    const [, , down, , , up] = await cells('qd32-randwrite')
    expect([down, up]).toEqual(['−21.3 %', '+20.5 %'])
  })

  it('says the model was fitted again over the span, and what the fit at the start gave', async () => {
    const text = await page.getByTestId('drift-summary').textContent()
    expect(text?.replace(/\s+/g, ' ')).toMatch(
      /fitted again on the sweep at the start and these 3 passes pooled, and the matrix judged on it; fitted at the start alone it ordered 3 of 4 separable pairs, with a median CDF distance of 24\.6 % and its sweep re-simulated within 17\.9 %/,
    )
  })

  it('fits 1024 × 700 without scrolling sideways, light and dark', async () => {
    const width = () =>
      page.evaluate(() => (globalThis as unknown as { document: Doc }).document.documentElement.scrollWidth)
    for (const w of [1440, 1024])
      for (const theme of ['light', 'dark']) {
        await page.setViewportSize({ width: w, height: w === 1440 ? 900 : 700 })
        await page.getByLabel('Theme').selectOption(theme)
        await expect.poll(width).toBeLessThanOrEqual(w)
        await page.getByTestId('validate-report').scrollIntoViewIfNeeded()
        await page.screenshot({ path: join(RESULTS, `validate-${w}-${theme}.png`) })
      }
    await page.getByLabel('Theme').selectOption('light')
    expect(errors).toEqual([])
  })

  it('sizes the fingerprint’s fields for what they hold: seconds narrow, a preset’s name whole', async () => {
    await page.setViewportSize({ width: 1440, height: 900 })
    type Box = { getBoundingClientRect(): { width: number } }
    const widthOf = (label: string) =>
      page
        .getByLabel(label, { exact: true })
        .evaluate((e) => (e as unknown as Box).getBoundingClientRect().width)
    // "3" seconds was a field 765 px wide, stretched to its label's line
    await expect(widthOf('Seconds per point')).resolves.toBeLessThan(150)
    // the name the lab gives ("fingerprint-loop1-2026-12-02") fits
    const name = page.getByLabel('Preset name', { exact: true })
    await name.fill('fingerprint-loop1-2026-12-02')
    await expect(
      name.evaluate((e) => {
        const el = e as unknown as { scrollWidth: number; clientWidth: number }
        return el.scrollWidth <= el.clientWidth
      }),
    ).resolves.toBe(true)
    await name.fill('')
  })
})
