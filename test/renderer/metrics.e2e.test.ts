// End to end: the metrics storage people read, in Chromium through the browser host. A small
// simulation and two imported files (fio JSON, bonnie++ CSV) side by side in one table: IOPS beside
// MB/s, latency p95 and p99.9, each row marked simulated or imported with its tunables (a variant's
// differences from the defaults), bonnie++'s own figures per test (K/sec per phase, seeks/s,
// creates/s) rather than one MB/s, and a column picker whose choice outlives a reload. Screenshots
// at 1440 and 1024 pixels wide, light and dark, go to test-results/metrics-*.png.
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { summarizeRuns } from '../../src/shared/experiment/compare'
import { importText } from '../../src/shared/import/import-text'
import { num } from '../../src/renderer/src/lib/format'
import { meanCiParts } from '../../src/shared/report/mean-ci'
import { BONNIE_103, FIO_STAGES } from '../formats/fixtures'
import { chromiumAvailable, RESULTS } from './browser'
import { closeLabPage, openLabPage, runNewSpec } from './lab-page'
import type { LabHost } from './lab-host'

const VARIANT = 'deadline (fifo_batch=1)'
const spec = {
  name: 'metrics',
  device: { preset: 'nullblk' },
  workload: {
    processes: [{ name: 'dd', type: 'dd', params: { op: 'read', file: 'f', bs: '64k', count: 256 } }],
  },
  schedulers: ['noop', { name: 'deadline', label: VARIANT, tunables: { fifo_batch: 1 } }],
  repetitions: 1,
}

const files = [
  { name: 'mini.json', mimeType: 'application/json', buffer: Buffer.from(FIO_STAGES) },
  { name: 'bonnie.csv', mimeType: 'text/csv', buffer: Buffer.from(BONNIE_103) },
]

/** What the importers make of the fixtures, summarised as the table does: the figures to expect. */
function expected() {
  const runs = [
    ...importText(FIO_STAGES, 'mini.json').runs,
    ...importText(BONNIE_103, 'bonnie.csv').runs,
  ].map((r) => r.run)
  return summarizeRuns(runs)
}

describe.runIf(chromiumAvailable())('the metrics people read, in Chromium', () => {
  let host: LabHost
  let browser: Browser
  let page: Page
  const errors: string[] = []
  const table = () => page.getByRole('table', { name: 'Comparison' })
  const cell = (label: string, metric: string) =>
    table().locator(`tr[data-label="${label}"] td[data-metric="${metric}"] span`).first()

  async function importFixtures(): Promise<void> {
    await page.getByTestId('import-input').setInputFiles(files)
    await page
      .getByRole('status')
      .filter({ hasText: /Imported 3 runs/ })
      .waitFor()
  }

  beforeAll(async () => {
    ;({ host, browser, page } = await openLabPage(errors, { viewport: { width: 1440, height: 900 } }))
  }, 180_000)

  afterAll(() => closeLabPage(host, browser))

  it('shows a simulation and imported fio and bonnie++ runs side by side, each marked where it came from', async () => {
    await runNewSpec(page, spec)
    await importFixtures()
    const row = (label: string) => table().locator(`tr[data-label="${label}"]`)
    await row('mini').waitFor()
    await row('bonnie').waitFor()
    const meta = (label: string, m: string) => row(label).locator(`td[data-meta="${m}"]`).textContent()
    await expect(meta('noop', 'source')).resolves.toContain('simulated')
    await expect(meta(VARIANT, 'source')).resolves.toContain('simulated')
    await expect(meta('mini', 'source')).resolves.toContain('imported · fio')
    await expect(meta('bonnie', 'source')).resolves.toContain('imported · bonnie++')
    await expect(row('mini').getAttribute('data-kind')).resolves.toBe('imported')
    // tunables: the defaults said so, a variant's difference shown with the default in its title
    await expect(meta('noop', 'tunables')).resolves.toContain('defaults')
    await expect(meta(VARIANT, 'tunables')).resolves.toContain('fifo_batch=1')
    await expect(row(VARIANT).locator('td[data-meta="tunables"]').getAttribute('title')).resolves.toMatch(
      /^fifo_batch = 1 \(default \d+\)/,
    )
    await expect(meta('mini', 'tunables')).resolves.toContain('not recorded')
  }, 180_000)

  it('shows IOPS beside MB/s and latency p50, p95 and p99.9, for simulated and imported fio runs', async () => {
    // p50, p95 and p99.9 are a choice away (the default table fits 1440 px with eight schedulers)
    await page.getByText('Columns', { exact: true }).click()
    await page.getByRole('checkbox', { name: 'latency p50' }).check()
    await page.getByRole('checkbox', { name: 'latency p95' }).check()
    await page.getByRole('checkbox', { name: 'latency p99.9' }).check()
    await page.getByText('Columns', { exact: true }).click()
    const want = expected()
    const fio = want.find((s) => s.label === 'mini')!
    const reader = fio.processes.find((p) => p.name === 'reader')!
    // fio's 2048 reads in 2 s
    expect(reader.IOPS.mean).toBe(1024)
    await expect(cell('mini', 'reader:IOPS').textContent()).resolves.toBe(num(reader.IOPS.mean))
    await expect(cell('mini', 'reader:MBps').textContent()).resolves.toBe(num(reader.MBps.mean))
    await expect(cell('mini', 'reader:p50').textContent()).resolves.toBe(num(reader.latencyMs.p50.mean))
    await expect(cell('mini', 'reader:p95').textContent()).resolves.toBe(num(reader.latencyMs.p95.mean))
    await expect(cell('mini', 'reader:p999').textContent()).resolves.toBe(num(reader.latencyMs.p999.mean))
    await expect(cell('mini', 'dev:readIops').textContent()).resolves.toBe(num(1024))
    // the simulated reader has them too: 256 reads of 64 KiB, numbers not dashes
    for (const m of ['dd:IOPS', 'dd:p50', 'dd:p95', 'dd:p999', 'dev:readIops'])
      await expect(cell('noop', m).textContent(), m).resolves.toMatch(/^[\d,.]+$/)
    const head = await table().locator('thead').textContent()
    for (const h of ['IOPS', 'p50', 'p95', 'p99.9', 'MB/s']) expect(head).toContain(h)
    // a simulated row has no fio job of its own: a dash, not a 0
    await expect(cell('noop', 'reader:IOPS').textContent()).resolves.toBe('–')
    await expect(cell('bonnie', 'reader:p95').textContent()).resolves.toBe('–')
  })

  it('shows bonnie++’s own figures per test: K/sec per phase, seeks/s, creates/s', async () => {
    const bonnie = expected()
      .find((s) => s.label === 'bonnie')!
      .processes.find((p) => p.name === 'bonnie++')!
    const summary = (phase: string) => bonnie.phases!.find((p) => p.name === phase)!.rate
    const rate = (phase: string) => summary(phase).mean
    // the two CSV lines' own figures, averaged: 25497 and 24873 K/sec, 202.5 and 198.7 seeks/s
    expect(rate('put_block')).toBeCloseTo((25497 + 24873) / 2, 6)
    expect(rate('seeks')).toBeCloseTo((202.5 + 198.7) / 2, 6)
    expect(rate('seq_create')).toBeCloseTo((1043 + 1039) / 2, 6)
    for (const [phase, title] of [
      ['putc', 'out per chr'],
      ['put_block', 'out block'],
      ['rewrite', 'rewrite'],
      ['getc', 'in per chr'],
      ['get_block', 'in block'],
      ['seeks', 'seeks'],
      ['seq_create', 'seq create'],
      ['ran_create', 'rand create'],
      ['ran_del', 'rand delete'],
    ]) {
      const text = await cell('bonnie', `bonnie++:phase:${phase}`).textContent()
      // mean ± 95 % CI of the two lines, as the table prints every repeated figure
      const t = meanCiParts(summary(phase), { plain: (x) => num(x), group: true })
      expect(text, phase).toBe(`${t.mean} ± ${t.ci}`)
      await expect(table().locator('thead').textContent()).resolves.toContain(title)
    }
    // bonnie++ counts no device operations: a dash, not 0 (nor its putc calls as device IOPS)
    await expect(cell('bonnie', 'dev:readIops').textContent()).resolves.toBe('–')
    // the tests bonnie++ could not time (+++++) have no figure: no column, not a 0
    await expect(table().locator('td[data-metric="bonnie++:phase:seq_stat"]').count()).resolves.toBe(0)
    const heads = await table().locator('thead tr:nth-child(2) th').allTextContents()
    expect(heads.filter((h) => h === 'out blockK/s')).toHaveLength(1)
    expect(heads.filter((h) => h === 'seeks/s')).toHaveLength(1)
    await shots('results')
  }, 120_000)

  it('shows fio’s submission and total latency where a fio run has them, a dash where fio printed no percentile', async () => {
    const reader = expected()
      .find((s) => s.label === 'mini')!
      .processes.find((p) => p.name === 'reader')!
    await expect(table().locator('td[data-metric="reader:slat:max"]').count()).resolves.toBe(0)
    await page.getByText('Columns', { exact: true }).click()
    await page.getByRole('checkbox', { name: /fio slat/ }).check()
    await page.getByRole('checkbox', { name: /fio lat/ }).check()
    await page.getByText('Columns', { exact: true }).click()
    await expect(cell('mini', 'reader:slat:max').textContent()).resolves.toBe(num(reader.slatMs!.max.mean))
    // fio prints slat percentiles only with slat_percentiles=1: not measured here
    await expect(cell('mini', 'reader:slat:p95').textContent()).resolves.toBe('–')
    await expect(cell('mini', 'reader:lat:p95').textContent()).resolves.toBe(num(reader.latMs!.p95.mean))
    // the simulator does not split a call's time so: a dash for its rows, and no columns for its process
    await expect(cell('noop', 'reader:lat:p95').textContent()).resolves.toBe('–')
    await expect(table().locator('td[data-metric="dd:lat:p95"]').count()).resolves.toBe(0)
    await page.getByText('Columns', { exact: true }).click()
    await page.getByRole('button', { name: 'defaults' }).click()
    await page.getByText('Columns', { exact: true }).click()
    await expect(table().locator('td[data-metric="reader:slat:max"]').count()).resolves.toBe(0)
  })

  it('hides and shows a column with the picker, and remembers the choice after a reload', async () => {
    const p95 = table().locator('td[data-metric$=":p95"]')
    const p99 = table().locator('td[data-metric$=":p99"]')
    const max = table().locator('td[data-metric$=":max"]')
    // by default p99 is shown, p95 and max are not
    await expect(p95.count()).resolves.toBe(0)
    expect(await p99.count()).toBeGreaterThan(0)
    await page.getByText('Columns', { exact: true }).click()
    await page.getByRole('checkbox', { name: 'latency p95' }).check()
    expect(await p95.count()).toBeGreaterThan(0)
    await page.getByRole('checkbox', { name: 'latency p99', exact: true }).uncheck()
    await expect(p99.count()).resolves.toBe(0)
    await page.getByRole('checkbox', { name: 'latency max' }).check()
    expect(await max.count()).toBeGreaterThan(0)
    await page
      .locator('section.table-card')
      .screenshot({ path: join(RESULTS, 'metrics-picker-1440-light.png') })
    await page.reload()
    await page.getByRole('button', { name: 'Results', exact: true }).click()
    await importFixtures()
    await table().locator('tr[data-label="mini"]').waitFor()
    // the choices held across the reload
    expect(await p95.count()).toBeGreaterThan(0)
    await expect(p99.count()).resolves.toBe(0)
    expect(await max.count()).toBeGreaterThan(0)
    await page.getByText('Columns', { exact: true }).click()
    await expect(page.getByRole('checkbox', { name: 'latency p99', exact: true }).isChecked()).resolves.toBe(
      false,
    )
    await expect(cell('mini', 'reader:p95').textContent()).resolves.toMatch(/^[\d.]+$/)
    await page.getByRole('button', { name: 'defaults' }).click()
    await expect(max.count()).resolves.toBe(0)
    await expect(p95.count()).resolves.toBe(0)
    expect(await p99.count()).toBeGreaterThan(0)
    await page.getByText('Columns', { exact: true }).click()
    await shots('imported-only')
  }, 60_000)

  it('logged no errors in the page', () => {
    expect(errors).toEqual([])
  })

  /** Full-page pictures at 1440 and 1024 wide, light and dark; the theme is left light. */
  async function shots(name: string): Promise<void> {
    await page.addStyleTag({ content: 'footer { position: static !important }' })
    for (const width of [1440, 1024])
      for (const theme of ['light', 'dark']) {
        await page.setViewportSize({ width, height: 900 })
        await page.getByLabel('Theme').selectOption(theme)
        await page.waitForTimeout(400)
        await page.screenshot({
          path: join(RESULTS, `metrics-${name}-${width}-${theme}.png`),
          fullPage: true,
        })
        await page
          .locator('section.table-card')
          .screenshot({ path: join(RESULTS, `metrics-${name}-table-${width}-${theme}.png`) })
        // and scrolled to its last columns: bonnie++'s phases and the device
        const scroller = page.locator('section.table-card .scroll-x')
        await scroller.evaluate((el) => (el.scrollLeft = el.scrollWidth))
        await page
          .locator('section.table-card')
          .screenshot({ path: join(RESULTS, `metrics-${name}-table-end-${width}-${theme}.png`) })
        await scroller.evaluate((el) => (el.scrollLeft = 0))
      }
    await page.getByLabel('Theme').selectOption('light')
    await page.setViewportSize({ width: 1440, height: 900 })
  }
})
