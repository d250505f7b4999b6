// End to end: what a storage engineer reads off the library before opening anything, in Chromium
// through the browser host — each run set's tunables (those that differ from the scheduler's
// defaults, marked, with the defaults in the tooltip), the save times in ISO order with the zone
// whatever the browser's locale, and a comparison whose values span decades (an HDD's random
// reads beside an NVMe drive's) on a log axis, which the toggle takes back to linear. Screenshots
// at 1440 and 1024 wide, light and dark, go to test-results/library-rows-*.png.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOG_DECADES } from '../../src/renderer/src/lib/scales'
import { dateTime } from '../../src/shared/util/date-time'
import { num } from '../../src/shared/util/people-numbers'
import { chromiumAvailable, RESULTS } from './browser'
import { closeLabPage, openLabPage, runNewSpec, saveSession } from './lab-page'
import { chartsIn, idle } from './page-waits'
import type { LabHost } from './lab-host'

const randomReads = (name: string, preset: string, schedulers: unknown[]) => ({
  name,
  device: { preset },
  workload: {
    processes: [{ name: 'rr', type: 'random-read', params: { size: '256M', count: 150, direct: true } }],
  },
  schedulers,
  repetitions: 2,
  seed: 1,
})

/** `2026-12-05 23:08 UTC` */
const ISO_MINUTE = /^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/

describe.runIf(chromiumAvailable())('the library’s rows and comparison chart in Chromium', () => {
  let host: LabHost
  let browser: Browser
  let page: Page
  const errors: string[] = []
  const views = () => page.getByRole('navigation', { name: 'Views' })

  beforeAll(async () => {
    // a locale and a zone whose own dates read otherwise (6.12.2026, 00:08:41)
    ;({ host, browser, page } = await openLabPage(errors, {
      viewport: { width: 1440, height: 900 },
      locale: 'de-DE',
      timezoneId: 'Europe/Berlin',
    }))
  }, 180_000)

  afterAll(() => closeLabPage(host, browser))

  async function runAndSave(doc: unknown, name: string): Promise<void> {
    await runNewSpec(page, doc)
    await saveSession(page, name)
  }

  /** Pictures of `what` at 1440 and 1024 wide, light and dark; light and 1440 after. */
  async function shots(name: string, what: string): Promise<void> {
    for (const width of [1440, 1024])
      for (const theme of ['light', 'dark']) {
        await page.setViewportSize({ width, height: 900 })
        await page.getByLabel('Theme').selectOption(theme)
        await chartsIn(page, theme === 'dark' ? [0x1f, 0x22, 0x27] : [255, 255, 255])
        await idle(page)
        await page
          .locator(what)
          .screenshot({ path: join(RESULTS, `library-rows-${name}-${width}-${theme}.png`) })
      }
    await page.getByLabel('Theme').selectOption('light')
    await page.setViewportSize({ width: 1440, height: 900 })
  }

  it('shows each run set’s tunables: the changed ones marked, the rest “defaults”', async () => {
    await runAndSave(
      randomReads('hdd', 'hdd-2003-ide', ['noop', { name: 'deadline', tunables: { fifo_batch: 4 } }]),
      'HDD',
    )
    await runAndSave(randomReads('nvme', 'nvme-tlc', ['none']), 'NVMe')
    await views().getByRole('button', { name: 'Library' }).click()
    const hdd = page.locator('article.hit[data-session="HDD"]')
    await hdd.waitFor()
    const cell = (set: string) => hdd.locator(`tr[data-set="result/${set}"] [data-col="tunables"]`)
    await expect(cell('deadline').textContent()).resolves.toMatch(/^\s*fifo_batch=4\s*$/)
    await expect(cell('deadline').getAttribute('class')).resolves.toContain('changed')
    await expect(cell('deadline').getAttribute('title')).resolves.toBe('fifo_batch = 4 (default 16)')
    await expect(cell('noop').textContent()).resolves.toMatch(/^\s*defaults\s*$/)
    await expect(cell('noop').getAttribute('class')).resolves.not.toContain('changed')
    await expect(page.locator('article.hit thead th').allTextContents()).resolves.toContain('tunables')
  }, 300_000)

  it('writes save times in UTC in ISO order, whatever the browser’s locale and zone; the date filters take such days', async () => {
    const times = await page.locator('article.hit .head .tabular').allTextContents()
    expect(times).toHaveLength(2)
    for (const t of times) expect(t.trim()).toMatch(ISO_MINUTE)
    // the moment the file says, in UTC: the same as the reports and `iosched-lab sessions` write it
    const files = (await readdir(host.library)).filter((f) => f.endsWith('.json'))
    // (a session file's first line is its header, up to the comma before the spec)
    const header = async (f: string) =>
      JSON.parse((await readFile(join(host.library, f), 'utf8')).split('\n')[0] + '"x":0}') as {
        name: string
        savedAt: string
      }
    const headers = await Promise.all(files.map(header))
    expect(headers).toHaveLength(2)
    for (const h of headers)
      await expect(
        page.locator(`article.hit[data-session="${h.name}"] .head .tabular`).textContent(),
      ).resolves.toBe(dateTime(h.savedAt))
    // the date filters show and take days as the sessions' times write them (ISO), not in de-DE's
    // own order (06.12.2026) as a bare date input would; a day half typed filters nothing
    const hits = page.locator('article.hit')
    const day = dateTime(headers[0].savedAt).slice(0, 10)
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
    const from = page.getByLabel('Saved from', { exact: true })
    await expect(from.getAttribute('type')).resolves.toBeNull()
    await expect(from.getAttribute('placeholder')).resolves.toBe('YYYY-MM-DD')
    await from.fill(next)
    await expect(from.inputValue()).resolves.toBe(next)
    await expect.poll(() => hits.count()).toBe(0)
    await from.fill(next.slice(0, 6))
    await expect.poll(() => hits.count()).toBe(2)
    await expect(
      from.evaluate((el) => (el as unknown as { validity: { valid: boolean } }).validity.valid),
    ).resolves.toBe(false)
    // the browser's calendar a click away: it opens on the typed day, and the day picked on it
    // lands in the field in ISO order
    type Input = { type: string; value: string }
    await page.evaluate(() => {
      // (in the page: its window and its inputs' prototype)
      const w = globalThis as unknown as {
        opened: string[]
        HTMLInputElement: { prototype: { showPicker(this: Input): void } }
      }
      w.opened = []
      w.HTMLInputElement.prototype.showPicker = function (this: Input) {
        w.opened.push(`${this.type} ${this.value}`)
      }
    })
    await from.fill(day)
    await page.getByRole('button', { name: 'Saved from: pick on a calendar' }).click()
    await expect(
      page.evaluate(() => (globalThis as unknown as { opened: string[] }).opened),
    ).resolves.toEqual([`date ${day}`])
    await page.locator('[data-calendar="Saved from"]').fill(next, { force: true })
    await expect(from.inputValue()).resolves.toBe(next)
    await expect.poll(() => hits.count()).toBe(0)
    await from.fill(day)
    await expect.poll(() => hits.count()).toBe(2)
    await page.getByLabel('Saved until', { exact: true }).fill(day)
    await expect.poll(() => hits.count()).toBe(2)
    await from.fill('')
    await page.getByLabel('Saved until', { exact: true }).fill('')
    // the start page's recent sessions alike
    await views().getByRole('button', { name: 'Start', exact: true }).click()
    const recent = page.locator('[aria-labelledby="sessions-title"] li').filter({ hasText: 'HDD' })
    const when = (await recent.locator('.tabular').textContent())!.split(' · ')[0]
    expect(when.trim()).toMatch(ISO_MINUTE)
  })

  it('compares values that span decades on a log axis, and the toggle takes it back to linear', async () => {
    await views().getByRole('button', { name: 'Library' }).click()
    await page.getByRole('checkbox', { name: 'Pick HDD: noop' }).check()
    await page.getByRole('checkbox', { name: 'Pick NVMe: none' }).check()
    await page.getByRole('button', { name: 'Compare 2 →' }).click()
    await page.getByRole('table', { name: 'Comparison of run sets' }).waitFor()
    await page.getByLabel('Metric to chart').selectOption('proc:rr:MBps')
    const canvas = page.locator('[data-chart="library-compare"] canvas')
    // the premise, from the bars' labels: the drives' rates are decades apart
    await expect.poll(() => canvas.getAttribute('aria-label')).toMatch(/NVMe: none/)
    const label = (await canvas.getAttribute('aria-label'))!
    const rate = (set: string) => Number(new RegExp(`${set} — ([\\d.,]+)`).exec(label)![1].replace(/,/g, ''))
    const [hdd, nvme] = [rate('HDD: noop'), rate('NVMe: none')]
    expect(Math.log10(nvme / hdd)).toBeGreaterThan(LOG_DECADES)
    // a difference of decades reads as the factor it is (“66×”), in the chart and the table alike,
    // not as thousands of percent; no difference beyond +100 % is left in percent
    const factor = Number(
      new RegExp('NVMe: none — [\\d.,]+ \\(([\\d.,]+)×').exec(label)?.[1]?.replace(/,/g, ''),
    )
    expect(Math.abs(factor / (nvme / hdd) - 1)).toBeLessThan(0.02)
    const diffs = await page.locator('table[aria-label="Comparison of run sets"] .diff').allTextContents()
    const nvmeDiffs = await page.locator('tr[data-row="NVMe: none"] .diff').allTextContents()
    expect(nvmeDiffs.map((d) => d.trim().replace(/ [*~].*$/, ''))).toContain(`${num(factor)}×`)
    for (const d of diffs) {
      const pct = /([+−])([\d.,]+) %/.exec(d)
      if (pct && pct[1] === '+') expect(Number(pct[2].replace(/,/g, '')), d).toBeLessThanOrEqual(100)
    }
    const axes = async () =>
      JSON.parse((await canvas.getAttribute('data-scales')) ?? '{}') as Record<
        string,
        { type: string; min: number }
      >
    await expect.poll(async () => (await axes()).x?.type).toBe('logarithmic')
    // the HDD's bar stands clear of the axis' start, rather than a sliver on it
    expect((await axes()).x.min).toBeLessThan(hdd / 2)
    const toggle = page.getByLabel('Comparison axis scale')
    await expect(toggle.locator('option:checked').textContent()).resolves.toBe('auto (log)')
    await shots('compare', '[data-chart="library-compare"]')
    await toggle.selectOption('linear')
    await expect.poll(async () => (await axes()).x.type).toBe('linear')
    await toggle.selectOption('auto')
    await expect.poll(async () => (await axes()).x.type).toBe('logarithmic')
    await shots('library', 'main')
    expect(errors).toEqual([])
  }, 120_000)
})
