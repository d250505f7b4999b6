// End to end: the library in Chromium through the browser host — two sessions saved with tags and
// notes (one with imported bonnie++ and fio files), found with the filters, run sets of both
// compared against a baseline (a table and a chart, saved as PNG), the picks back after a reload,
// a session opened again and exported as an HTML report and as text, unreadable files listed with
// their errors, and the picks of a deleted session dropped with a note. Screenshots go to
// test-results/library-*.png.
import { readFile, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SCHEDULER_COLOURS } from '../../src/shared/report/palette'
import { BONNIE_103, FIO_MINI } from '../formats/fixtures'
import { chromiumAvailable, launchChromium, RESULTS } from './browser'
import { startLabHost } from './lab-host'
import { runNewSpec, saveSession } from './lab-page'
import type { LabHost } from './lab-host'

const spec = (name: string, schedulers: unknown[], seed: number) => ({
  name,
  device: { preset: 'hdd-2003-ide' },
  workload: {
    processes: [{ name: 'rr', type: 'random-read', params: { size: '256M', count: 150, direct: true } }],
  },
  schedulers,
  repetitions: 3,
  seed,
})

describe.runIf(chromiumAvailable())('the library in Chromium, through the browser host', () => {
  let host: LabHost
  let browser: Browser
  let page: Page
  const errors: string[] = []
  const shot = async (name: string) => {
    await page.addStyleTag({ content: 'footer { position: static !important }' })
    await page.screenshot({ path: join(RESULTS, `library-${name}.png`), fullPage: true })
  }

  beforeAll(async () => {
    ;[host, browser] = await Promise.all([startLabHost(), launchChromium()])
    page = await browser.newPage({ viewport: { width: 1360, height: 900 }, acceptDownloads: true })
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto(host.server.url)
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await host?.close()
  })

  /** The comparison chart: a chart.js canvas with bars drawn in the run sets' colours. */
  async function chartDrawn(): Promise<void> {
    const card = page.locator('[data-chart="library-compare"]')
    await expect(card.locator('canvas').count()).resolves.toBe(1)
    await expect(card.locator('.waiting').count()).resolves.toBe(0)
    await expect(card.locator('.rows, .track').count()).resolves.toBe(0) // no longer HTML bars
    await expect
      .poll(() =>
        card.locator('canvas').evaluate((el) => {
          const c = el as unknown as {
            width: number
            height: number
            dataset: { series?: string }
            getContext(t: '2d'): { getImageData(...a: number[]): { data: Uint8ClampedArray } }
          }
          const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data
          // the run sets' colours (each scheduler's, from the palette), as the chart says it drew them
          const series = JSON.parse(c.dataset.series ?? '[]') as { colour: string[] }[]
          const bars = (series[0]?.colour ?? []).map((h) => {
            const x = parseInt(h.slice(1), 16)
            return `${(x >> 16) & 255},${(x >> 8) & 255},${x & 255}`
          })
          let n = 0
          for (let i = 0; i < d.length; i += 4) if (bars.includes(`${d[i]},${d[i + 1]},${d[i + 2]}`)) n++
          return n
        }),
      )
      .toBeGreaterThan(2000)
  }

  /** A new experiment from JSON, run to the end. */
  const runSpec = (doc: unknown): Promise<void> => runNewSpec(page, doc)

  const save = (name: string, tags: string, notes: string): Promise<void> =>
    saveSession(page, name, tags, notes)

  it('saves a simulated session with tags and notes', async () => {
    await runSpec(spec('ssd deadline', ['noop', { name: 'deadline', tunables: { fifo_batch: 4 } }], 1))
    await save('SSD deadline', 'ssd, e2e', 'noop against deadline with fifo_batch 4')
  }, 150_000)

  it('imports a bonnie++ CSV and a fio JSON file into a second session, and saves it', async () => {
    await runSpec(spec('ssd kyber', ['kyber', 'bfq'], 2))
    await page.getByTestId('import-input').setInputFiles([
      { name: 'disk-a.csv', mimeType: 'text/csv', buffer: Buffer.from(BONNIE_103) },
      { name: 'mini.json', mimeType: 'application/json', buffer: Buffer.from(FIO_MINI) },
      { name: 'junk.txt', mimeType: 'text/plain', buffer: Buffer.from('not a benchmark\n') },
    ])
    await page.getByRole('status').filter({ hasText: 'Imported 3 runs from 2 files' }).waitFor()
    await expect(
      page.getByRole('alert').filter({ hasText: 'junk.txt: line 1: unrecognised format' }).count(),
    ).resolves.toBe(1)
    const table = page.getByRole('table', { name: 'Imported runs' })
    await expect(table.locator('tbody tr').count()).resolves.toBe(2)
    await expect(table.locator('tr[data-imported="disk-a"]').textContent()).resolves.toMatch(/bonnie\+\+.*2/)
    await shot('1-imported')
    await save('SSD kyber and tools', 'ssd, imported', 'kyber and bfq; bonnie++ and fio from the lab PC')
    await expect(page.locator('.bar .tag').allTextContents()).resolves.toEqual(['ssd', 'imported'])
  }, 150_000)

  it('lists both sessions in the library and filters them', async () => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Library' }).click()
    const hits = page.locator('article.hit')
    const settled = () => page.locator('[data-testid="hits"][aria-busy="false"]').waitFor()
    await hits.first().waitFor()
    await expect(hits.count()).resolves.toBe(2)
    await shot('2-library')
    await page.getByRole('group', { name: 'Tags' }).getByRole('button', { name: 'e2e' }).click()
    await settled()
    await expect(hits.count()).resolves.toBe(1)
    await expect(hits.first().getAttribute('data-session')).resolves.toBe('SSD deadline')
    await page.getByRole('group', { name: 'Tags' }).getByRole('button', { name: 'e2e' }).click()
    await page.getByLabel('Workload', { exact: true }).selectOption('bonnie++')
    await settled()
    await expect(hits.count()).resolves.toBe(1)
    await expect(hits.first().getAttribute('data-session')).resolves.toBe('SSD kyber and tools')
    await expect(hits.first().locator('tbody tr').count()).resolves.toBe(1) // only the bonnie++ run set
    // its source as the results' table calls the column, whole in the tooltip when cut short
    await expect(hits.first().locator('thead th').allTextContents()).resolves.toContain('source')
    await expect(hits.first().locator('tbody [data-col="source"]').getAttribute('title')).resolves.toBe(
      'imported (bonnie++)',
    )
    await shot('3-filtered')
    await page.getByLabel('Workload', { exact: true }).selectOption('')
    await page.getByLabel('Search sessions').fill('lab pc')
    await settled()
    await expect(hits.count()).resolves.toBe(1)
    await page.getByLabel('Search sessions').fill('')
    await settled()
    await expect(hits.count()).resolves.toBe(2)
  })

  it('compares run sets of both sessions against a baseline', async () => {
    for (const name of [
      'Pick SSD deadline: noop',
      'Pick SSD deadline: deadline',
      'Pick SSD kyber and tools: kyber',
      'Pick SSD kyber and tools: disk-a',
    ])
      await page.getByRole('checkbox', { name }).check()
    await page.getByRole('button', { name: 'Compare 4 →' }).click()
    const table = page.getByRole('table', { name: 'Comparison of run sets' })
    await table.waitFor()
    await expect(table.locator('tbody tr').count()).resolves.toBe(4)
    await expect(table.locator('tr.base').getAttribute('data-row')).resolves.toBe('SSD deadline: noop')
    // simulated repetitions differ by seed: a difference in percent on the kyber row, maybe significant
    const kyber = table.locator('tr[data-row="SSD kyber and tools: kyber"]')
    await expect(kyber.locator('.diff').first().textContent()).resolves.toMatch(/[+−±][\d.]+ %/)
    // green and red only where significant, as the table colours them: "−95 %" of a single run is
    // not green, and the legend says why
    for (const d of await table.locator('.diff.better, .diff.worse').allTextContents())
      expect(d).toContain('*')
    await expect(page.locator('p.legend').textContent()).resolves.toMatch(
      /Green: significantly\s+better than the baseline, red: significantly worse; a difference not significant/,
    )
    await expect(table.locator('tr[data-row="SSD deadline: noop"] td.times').textContent()).resolves.toMatch(
      /[\d.]+ [\d.]+ [\d.]+\s*→\s*[\d.]+/,
    )
    await page.getByRole('radio', { name: 'Baseline: SSD kyber and tools: kyber' }).check()
    await expect
      .poll(() => table.locator('tr.base').getAttribute('data-row'))
      .toBe('SSD kyber and tools: kyber')
    await page.getByLabel('Metric to chart').selectOption('proc:rr:MBps')
    await chartDrawn()
    // each scheduler in its own colour, the palette's (the same as on the results page)
    const drawn = JSON.parse(
      (await page.locator('[data-chart="library-compare"] canvas').getAttribute('data-series'))!,
    ) as { colour: string[] }[]
    expect(drawn[0].colour.slice(0, 3)).toEqual([
      SCHEDULER_COLOURS.noop,
      SCHEDULER_COLOURS.deadline,
      SCHEDULER_COLOURS.kyber,
    ])
    // each bar's value and difference from the baseline, readable without hovering
    await expect(
      page.locator('[data-chart="library-compare"] canvas').getAttribute('aria-label'),
    ).resolves.toMatch(
      /SSD deadline: noop — [\d.]+ \([+−±][\d.]+ %( \*)?\).*SSD kyber and tools: kyber — [\d.]+ \(baseline\)/,
    )
    const [png] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-chart="library-compare"] button.png').click(),
    ])
    expect(png.suggestedFilename()).toBe('comparison-proc-rr-MBps.png')
    const bytes = await readFile((await png.path())!)
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    expect(bytes.length).toBeGreaterThan(5000)
    await writeFile(join(RESULTS, 'library-compare-chart.png'), bytes)
    // the tooltip of the first bar: its whole name, value ± CI and p
    const canvas = page.locator('[data-chart="library-compare"] canvas')
    const box = (await canvas.boundingBox())!
    await canvas.hover({ position: { x: box.width * 0.6, y: 34 } })
    await page
      .locator('[data-chart="library-compare"]')
      .screenshot({ path: join(RESULTS, 'library-4-tooltip.png') })
    await page.mouse.move(0, 0)
    await shot('4-compare')
    await page.getByLabel('Theme').selectOption('dark')
    await chartDrawn()
    await shot('4-compare-dark')
    await page.getByLabel('Theme').selectOption('light')
  })

  it('shows the columns chosen for Results’ table, keeps the run set’s name in view when it scrolls, and fits each session’s buttons on one line at 1024', async () => {
    const table = page.getByRole('table', { name: 'Comparison of run sets' })
    const heads = () => table.locator('thead tr:nth-child(2) th').allTextContents()
    // Results' defaults: p99 shown, p50, p95 and p99.9 not
    const rr = (await heads()).filter((h) => /latency/.test(h)).map((h) => h.replace(/ms$/, ''))
    expect(rr).toEqual(['p99 latency'])
    await page.getByText('Columns', { exact: true }).click()
    await page.getByRole('group', { name: 'Columns shown' }).locator('[data-column="p95"]').check()
    await expect.poll(async () => (await heads()).filter((h) => h.startsWith('p95')).length).toBe(1)
    // the picker offers only what a comparison has (no fio slat, no device busy)
    await expect(page.locator('[data-column="slat"], [data-column="dev:util"]').count()).resolves.toBe(0)
    await page.getByRole('button', { name: 'defaults' }).click()
    await expect.poll(async () => (await heads()).filter((h) => h.startsWith('p95')).length).toBe(0)
    // narrow, the table scrolls inside its card; each row's name stays at its left edge
    await page.setViewportSize({ width: 1024, height: 700 })
    const left = () =>
      table.evaluate((t) => {
        type Box = { getBoundingClientRect(): { left: number } }
        const box = t as unknown as Box & {
          parentElement: Box & { scrollLeft: number; scrollWidth: number; clientWidth: number }
          querySelector(s: string): Box
        }
        const scroller = box.parentElement
        scroller.scrollLeft = scroller.scrollWidth
        return {
          scrolls: scroller.scrollWidth > scroller.clientWidth,
          name: Math.round(box.querySelector('tbody th.set').getBoundingClientRect().left),
          edge: Math.round(scroller.getBoundingClientRect().left),
        }
      })
    const at = await left()
    expect(at.scrolls).toBe(true)
    expect(at.name).toBe(at.edge)
    // and each session's buttons on one line: "Open" is not left alone on the next
    await page.getByRole('tab', { name: /Sessions/ }).click()
    for (const hit of await page.locator('article.hit').all()) {
      const notes = (await hit.getByRole('button', { name: /Edit notes and tags/ }).boundingBox())!
      const open = (await hit.getByRole('button', { name: 'Open', exact: true }).boundingBox())!
      expect(Math.round(open.y)).toBe(Math.round(notes.y))
    }
    await page.getByRole('tab', { name: /Compare/ }).click()
    await page.setViewportSize({ width: 1360, height: 900 })
  })

  it('has the same run sets and baseline picked after a reload', async () => {
    await page.reload()
    const tab = page.getByRole('tab', { name: /Compare/ })
    await expect.poll(() => tab.locator('.count').textContent()).toBe('4')
    await tab.click()
    const table = page.getByRole('table', { name: 'Comparison of run sets' })
    await table.waitFor()
    await expect(
      table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row'))),
    ).resolves.toEqual([
      'SSD deadline: noop',
      'SSD deadline: deadline',
      'SSD kyber and tools: kyber',
      'SSD kyber and tools: disk-a',
    ])
    await expect(table.locator('tr.base').getAttribute('data-row')).resolves.toBe(
      'SSD kyber and tools: kyber',
    )
    await expect(
      page.getByRole('radio', { name: 'Baseline: SSD kyber and tools: kyber' }).isChecked(),
    ).resolves.toBe(true)
    await expect(page.getByTestId('restore-note').count()).resolves.toBe(0)
    await chartDrawn()
    await shot('4-compare-reloaded')
  })

  it('compares an imported fio job with a simulated process once mapped to it, and remembers the mapping', async () => {
    await page.getByRole('tab', { name: /Sessions/ }).click()
    await page.getByRole('checkbox', { name: 'Pick SSD kyber and tools: mini' }).check()
    await page.getByRole('button', { name: 'Compare 5 →' }).click()
    const table = page.getByRole('table', { name: 'Comparison of run sets' })
    await expect.poll(() => table.locator('tbody tr').count()).toBe(5)
    const chart = page.locator('[data-chart="library-compare"] canvas')
    await page.getByLabel('Metric to chart').selectOption('proc:rr:MBps')
    // fio's jobs are "reader" and "writer", the simulated process "rr": nothing to compare yet
    await expect
      .poll(() => chart.getAttribute('aria-label'))
      .toContain('SSD kyber and tools: mini — not measured')
    const as = page.getByLabel("Compare SSD kyber and tools: mini's process reader as")
    await expect(
      page.getByLabel("Compare SSD kyber and tools: mini's process writer as").count(),
    ).resolves.toBe(1)
    await as.selectOption('rr')
    // its reader's rate now stands in the rr column, against the baseline's
    await expect
      .poll(() => chart.getAttribute('aria-label'))
      .toMatch(/SSD kyber and tools: mini — [\d.]+ \(([+−±][\d.]+ %|[\d.,]+×)/)
    const mini = (await host.lab.librarySearch({ text: 'lab pc' })).hits[0]
    const fio = await host.lab.libraryCompare({
      sets: [
        { path: mini.path, set: mini.sets.find((f) => f.label === 'kyber')!.key },
        { path: mini.path, set: mini.sets.find((f) => f.label === 'mini')!.key, rename: { reader: 'rr' } },
      ],
    })
    const at = fio.metrics.findIndex((m) => m.id === 'proc:rr:MBps')
    expect(fio.cells[1][at]!.value).toBeGreaterThan(0)
    await shot('5-mapped')
    // remembered with the picks
    await page.reload()
    await page.getByRole('tab', { name: /Compare/ }).click()
    await expect
      .poll(() => page.getByLabel("Compare SSD kyber and tools: mini's process reader as").inputValue())
      .toBe('rr')
  })

  it('opens a session from the library and exports it as an HTML report and as text', async () => {
    await page.getByRole('tab', { name: /Sessions/ }).click()
    await page
      .locator('article.hit[data-session="SSD kyber and tools"]')
      .getByRole('button', { name: 'Open' })
      .click()
    await page.locator('tr[data-label="kyber"] td.num').first().waitFor()
    await expect(
      page.getByRole('table', { name: 'Imported runs' }).locator('tbody tr').count(),
    ).resolves.toBe(2)
    const [html] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-export="html"]').click(),
    ])
    expect(html.suggestedFilename()).toBe('ssd-kyber-and-tools.html')
    const report = await readFile((await html.path())!, 'utf8')
    expect(report).toMatch(/^<!DOCTYPE html>/)
    expect(report).toContain('<h1>SSD kyber and tools</h1>')
    expect(report).toContain('bonnie++')
    expect(report).toContain('<svg')
    await writeFile(join(RESULTS, 'library-report.html'), report)
    const [text] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-export="text"]').click(),
    ])
    expect(text.suggestedFilename()).toBe('ssd-kyber-and-tools.txt')
    expect(await readFile((await text.path())!, 'utf8')).toMatch(/^SSD kyber and tools\n=+/)
    await shot('5-results-with-imports')
  })

  it('lists files it cannot read with their errors, and the sessions as before', async () => {
    await writeFile(join(host.library, 'broken.json'), '{"schema": "iosched-lab/session@2", "name": "cut')
    await writeFile(
      join(host.library, 'future.json'),
      JSON.stringify({ schema: 'iosched-lab/session@9', name: 'x' }),
    )
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Library' }).click()
    await page.reload()
    const problems = page.locator('.problems li')
    await problems.first().waitFor()
    await expect(problems.count()).resolves.toBe(2)
    await expect(page.locator('[data-problem="future.json"]').textContent()).resolves.toContain(
      'newer than this lab reads',
    )
    await expect(page.locator('article.hit').count()).resolves.toBe(2)
    await shot('6-problems')
  })

  it('drops the picks of a session deleted meanwhile, with a note, and compares the rest', async () => {
    const gone = (await host.lab.librarySearch({ text: 'fifo_batch' })).hits
    expect(gone.map((h) => h.name)).toEqual(['SSD deadline'])
    await unlink(gone[0].path)
    await page.reload()
    const note = page.getByTestId('restore-note')
    await note.waitFor()
    await expect(note.textContent()).resolves.toContain(
      '2 run sets picked before are no longer in the library and left the comparison: SSD deadline: noop, SSD deadline: deadline.',
    )
    await expect(page.getByRole('alert').count()).resolves.toBe(0)
    await page.getByRole('tab', { name: /Compare/ }).click()
    const table = page.getByRole('table', { name: 'Comparison of run sets' })
    await expect.poll(() => table.locator('tbody tr').count()).toBe(3)
    await expect(table.locator('tr.base').getAttribute('data-row')).resolves.toBe(
      'SSD kyber and tools: kyber',
    )
    await chartDrawn()
    await shot('7-dropped')
    await note.getByRole('button', { name: 'Dismiss' }).click()
    await expect(note.count()).resolves.toBe(0)
  })

  it('logged no errors in the page', () => {
    expect(errors).toEqual([])
  })
})
