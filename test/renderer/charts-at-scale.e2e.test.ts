// End to end: charts at storage scales, in Chromium through the browser host. A 10 MB/s reader
// beside a writer at gigabytes per second puts the throughput charts on a log axis by themselves
// (and the toggle takes them back to linear); the sector-over-time pictures tell reads from writes
// by marker and shade; each process has its throughput over time; a queue-depth sweep of 1, 4, 16, 64 gets a log axis ticked at those values
// and an error bar at every point of its repetitions; a 2 s run beside two 60 s ones gets a time
// axis of its own instead of the first thirtieth of a shared one. Screenshots at 1440 and 1024 pixels wide,
// light and dark, go to test-results/charts-*.png.
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOG_DECADES } from '../../src/renderer/src/lib/scales'
import { chartColours } from '../../src/renderer/src/lib/chart-theme'
import { schedulerColour as colourOf } from '../../src/shared/report/palette'
import { num } from '../../src/shared/util/people-numbers'
import { chromiumAvailable, RESULTS } from './browser'
import { closeLabPage, newSpec, openLabPage } from './lab-page'
import { idle as idleOf, chartsIn as chartsInOf } from './page-waits'
import type { LabHost } from './lab-host'

const SCHEDULERS = ['none', 'bfq']
const fio = (params: Record<string, unknown>) => ({
  type: 'fio',
  params: { direct: true, ioengine: 'io_uring', size: '10G', time_based: true, ...params },
})
const mixed = {
  name: 'slow reader beside a fast writer',
  device: { preset: 'nvme-tlc' },
  workload: {
    processes: [
      { name: 'reader', ...fio({ rw: 'read', bs: '64k', rate: '10M', runtime: 2 }) },
      { name: 'writer', ...fio({ rw: 'write', bs: '1M', iodepth: 16, runtime: 2 }) },
    ],
    stop: { processes: ['reader'], maxSeconds: 5 },
  },
  schedulers: SCHEDULERS,
}
const queueDepths = {
  name: 'queue depths',
  device: { preset: 'nvme-tlc' },
  workload: {
    processes: [
      {
        name: 'rr',
        type: 'fio',
        params: { rw: 'randread', bs: '4k', size: '16M', direct: true, ioengine: 'io_uring' },
      },
    ],
  },
  schedulers: SCHEDULERS,
  repetitions: 3,
}
const DEPTHS = [1, 4, 16, 64]
// on a disk, a 32 MB reader beside a write flood: bfq lets it finish in about 2 s; under none and
// deadline it has not after 60
const uneven = {
  name: 'reader under a write flood',
  device: { preset: 'hdd-7200-sata' },
  workload: {
    processes: [
      { name: 'reader', type: 'fio', params: { rw: 'read', bs: '64k', size: '32M', direct: true } },
      { name: 'writer', ...fio({ rw: 'write', bs: '1M', iodepth: 16, runtime: 60 }) },
    ],
    stop: { processes: ['reader'], maxSeconds: 60 },
  },
  schedulers: ['none', 'deadline', 'bfq'],
}

describe.runIf(chromiumAvailable())('charts at storage scales in Chromium', () => {
  let host: LabHost
  let browser: Browser
  let page: Page
  const errors: string[] = []

  const idle = () => idleOf(page)

  const chartsIn = (rgb: number[]) => chartsInOf(page, rgb)

  /** Pictures at 1440 and 1024 wide, light and dark, of the page or of one element. */
  async function shots(name: string, what?: string): Promise<void> {
    await page.addStyleTag({ content: 'footer { position: static !important }' })
    for (const width of [1440, 1024])
      for (const theme of ['light', 'dark']) {
        await page.setViewportSize({ width, height: 900 })
        await page.getByLabel('Theme').selectOption(theme)
        await chartsIn(theme === 'dark' ? [0x1f, 0x22, 0x27] : [255, 255, 255])
        await idle()
        const path = join(RESULTS, `charts-${name}-${width}-${theme}.png`)
        if (what) await page.locator(what).screenshot({ path })
        else await page.screenshot({ path, fullPage: true })
      }
    await page.getByLabel('Theme').selectOption('light')
    await page.setViewportSize({ width: 1440, height: 900 })
  }

  /** Each axis' type. */
  const scales = async (chart: string): Promise<Record<string, string>> =>
    Object.fromEntries(Object.entries(await axes(chart)).map(([id, a]) => [id, a.type]))

  const canvas = (chart: string) => page.locator(`[data-chart="${chart}"] canvas`)

  /** A chart's axes as it drew them (data-scales on its canvas), once it has drawn. */
  async function axes(
    chart: string,
  ): Promise<Record<string, { type: string; min: number; max: number; ticks: string[]; rotation: number }>> {
    await expect.poll(() => canvas(chart).getAttribute('data-scales'), { timeout: 15_000 }).toBeTruthy()
    return JSON.parse((await canvas(chart).getAttribute('data-scales'))!)
  }

  /** Each series of a chart as it drew it: name, colour, marker, points with an error bar. */
  async function series(
    chart: string,
  ): Promise<{ label: string; colour: string; marker?: string; errorBars?: number }[]> {
    await expect.poll(() => canvas(chart).getAttribute('data-series'), { timeout: 15_000 }).toBeTruthy()
    return JSON.parse((await canvas(chart).getAttribute('data-series'))!)
  }

  /** Replace the spec on the setup page with `doc`. */
  async function setSpec(doc: unknown): Promise<void> {
    await page.getByRole('button', { name: 'Setup', exact: true }).click()
    await page.getByRole('tab', { name: 'JSON' }).click()
    await page.getByLabel('Spec JSON').fill(JSON.stringify(doc, null, 2))
    await page.getByRole('button', { name: 'Apply' }).click()
    await page.getByText('The spec is valid.').waitFor()
  }

  const applySpec = (doc: unknown): Promise<void> => newSpec(page, doc)

  beforeAll(async () => {
    ;({ host, browser, page } = await openLabPage(errors, { viewport: { width: 1440, height: 900 } }))
  }, 180_000)

  afterAll(() => closeLabPage(host, browser))

  it('puts a 10 MB/s reader beside a GB/s writer on a log axis, and the toggle takes it back to linear', async () => {
    await applySpec(mixed)
    await page.keyboard.press('Control+Enter')
    await page.getByText(/Done in/).waitFor({ timeout: 120_000 })
    // the premise, from the table: the two processes' rates are decades apart
    const rate = async (id: string) =>
      Number(
        (await page.locator(`tr[data-label="none"] td[data-metric="${id}"]`).first().textContent())!.replace(
          /[^\d.]/g,
          '',
        ),
      )
    const [reader, writer] = [await rate('reader:MBps'), await rate('writer:MBps')]
    expect(reader).toBeGreaterThan(5)
    expect(Math.log10(writer / reader)).toBeGreaterThan(LOG_DECADES)

    // (the charts draw as results arrive: the first scheduler's alone may span less)
    await expect.poll(async () => (await scales('throughput')).y).toBe('logarithmic')
    await expect.poll(async () => (await scales('process-throughput')).y).toBe('logarithmic')
    // the log axes start below the reader's rate, so its line and bar are drawn, not on the floor
    expect((await axes('throughput')).y.min).toBeLessThan(reader / 2)
    expect((await axes('process-throughput')).y.min).toBeLessThan(reader / 2)
    expect((await axes('process-throughput')).y.max).toBeGreaterThanOrEqual(writer)
    // labelled at 1, 2, 5 of each decade as people write them: "1,000", not "1000.0"
    // (charts redraw when the page is idle: the last result's redraw may still be to come)
    await expect
      .poll(async () => (await axes('throughput')).y.ticks.filter(Boolean), { timeout: 30_000 })
      .toEqual(expect.arrayContaining(['1', '10', '100', '1,000']))
    const ticks = (await axes('throughput')).y.ticks.filter(Boolean)
    for (const t of ticks) expect(t).toMatch(/^(1|2|5)(0|,000)*$/)
    const toggle = page.getByLabel('Throughput axis scale', { exact: true })
    await expect(toggle.locator('option:checked').textContent()).resolves.toBe('auto (log)')
    await toggle.selectOption('linear')
    await expect.poll(async () => (await scales('throughput')).y).toBe('linear')
    // the other chart keeps its own choice
    expect((await scales('process-throughput')).y).toBe('logarithmic')
    await toggle.selectOption('auto')
    await expect.poll(async () => (await scales('throughput')).y).toBe('logarithmic')
    // only the reads: one series per scheduler, the same size, linear again by itself
    await page.getByLabel('Directions').selectOption('read')
    await expect.poll(async () => (await scales('throughput')).y).toBe('linear')
    await expect(toggle.locator('option:checked').textContent()).resolves.toBe('auto (linear)')
    await page.getByLabel('Directions').selectOption('both')
    await expect.poll(async () => (await scales('throughput')).y).toBe('logarithmic')
  }, 150_000)

  it('charts each process’s own throughput over time, one line per scheduler', async () => {
    const chart = page.locator('[data-chart="process-over-time"]')
    await expect.poll(async () => (await series('process-over-time')).map((s) => s.label)).toEqual(SCHEDULERS)
    // the reader's own 10 MB/s, not the device's gigabytes a second
    await expect(chart.getByLabel('Process', { exact: true }).inputValue()).resolves.toBe('reader')
    await expect.poll(async () => (await axes('process-over-time')).y.max).toBeLessThan(50)
    expect((await axes('process-over-time')).y.max).toBeGreaterThan(5)
    // the writer's, decades above
    await chart.getByLabel('Process', { exact: true }).selectOption('writer')
    await expect.poll(async () => (await axes('process-over-time')).y.max).toBeGreaterThan(1000)
    await expect(chart.locator('.title').textContent()).resolves.toContain('Throughput of writer over time')
    await expect(chart.getByTestId('process-time-missing').count()).resolves.toBe(0)
  })

  it('zooms the time axis on a stretch dragged across it, moves along with Shift-drag, and shows all again', async () => {
    const full = (await axes('throughput')).x
    await canvas('throughput').scrollIntoViewIfNeeded()
    const box = (await canvas('throughput').boundingBox())!
    const y = box.y + box.height / 2
    const dragAt = async (from: number, to: number, shift = false): Promise<void> => {
      if (shift) await page.keyboard.down('Shift')
      await page.mouse.move(box.x + box.width * from, y)
      await page.mouse.down()
      await page.mouse.move(box.x + box.width * ((from + to) / 2), y)
      await page.mouse.move(box.x + box.width * to, y)
      await page.mouse.up()
      if (shift) await page.keyboard.up('Shift')
    }
    await dragAt(0.4, 0.7)
    await expect.poll(async () => (await axes('throughput')).x.min).toBeGreaterThan(full.min)
    const zoomed = (await axes('throughput')).x
    expect(zoomed.max).toBeLessThan(full.max)
    // about the 30 % of the canvas dragged across (a little more of the axis: the y axis takes room)
    expect((zoomed.max - zoomed.min) / (full.max - full.min)).toBeGreaterThan(0.25)
    expect((zoomed.max - zoomed.min) / (full.max - full.min)).toBeLessThan(0.45)
    await expect(page.locator('[data-chart="throughput"]').getAttribute('data-zoomed')).resolves.toBe('yes')
    await page.mouse.move(0, 0)
    await shots('zoomed', '[data-chart="throughput"]')
    // Shift-drag to the right: earlier in time, as wide as before
    await dragAt(0.5, 0.6, true)
    await expect.poll(async () => (await axes('throughput')).x.min).toBeLessThan(zoomed.min)
    const moved = (await axes('throughput')).x
    expect(moved.max - moved.min).toBeCloseTo(zoomed.max - zoomed.min, 6)
    // a double click: all of it again
    await canvas('throughput').dblclick({ position: { x: box.width / 2, y: box.height / 2 } })
    await expect.poll(async () => (await axes('throughput')).x.max).toBe(full.max)
    expect((await axes('throughput')).x.min).toBe(full.min)
    await expect(page.locator('[data-chart="throughput"]').getAttribute('data-zoomed')).resolves.toBe(null)
    // the other charts of time zoom on their own; "all" brings one back
    const other = (await axes('process-over-time')).x
    await canvas('process-over-time').scrollIntoViewIfNeeded()
    const b2 = (await canvas('process-over-time').boundingBox())!
    await page.mouse.move(b2.x + b2.width * 0.5, b2.y + b2.height / 2)
    await page.mouse.down()
    await page.mouse.move(b2.x + b2.width * 0.8, b2.y + b2.height / 2)
    await page.mouse.up()
    await expect.poll(async () => (await axes('process-over-time')).x.min).toBeGreaterThan(other.min)
    expect((await axes('throughput')).x.max).toBe(full.max)
    await page.locator('[data-chart="process-over-time"]').getByRole('button', { name: 'all' }).click()
    await expect.poll(async () => (await axes('process-over-time')).x.min).toBe(other.min)
  })

  it('tells reads from writes in sector over time: coloured dots over grey squares, in the legend too', async () => {
    // writes opaque in the theme's grey, the same under every scheduler: a translucent shade of the
    // scheduler's colour piled up where writes are dense until they looked like its reads
    for (const [theme, grey] of [
      ['dark', chartColours(true).behind],
      ['light', chartColours(false).behind],
    ]) {
      await page.getByLabel('Theme').selectOption(theme)
      for (const s of SCHEDULERS)
        await expect
          .poll(async () => (await series(`sectors-${s}`)).map((x) => [x.label, x.marker, x.colour]))
          .toEqual([
            ['write', 'rect', grey],
            ['read', 'circle', colourOf(s)],
          ])
    }
    await shots('results')
    await page.getByRole('region', { name: 'Sector over time per scheduler' }).scrollIntoViewIfNeeded()
    await page
      .getByRole('region', { name: 'Sector over time per scheduler' })
      .screenshot({ path: join(RESULTS, 'charts-sectors.png') })
  }, 120_000)

  it('sweeps queue depths 1, 4, 16, 64 on a log axis with an error bar at every point', async () => {
    await setSpec(queueDepths)
    await page.getByRole('button', { name: 'Sweep', exact: true }).click()
    await page.getByLabel('Parameter to vary').selectOption('workload.processes[0].params.iodepth')
    await page.getByLabel('Values').fill(DEPTHS.join(', '))
    // the runs it makes, repetitions counted
    await page.getByRole('button', { name: 'Run sweep (4 × 2 schedulers × 3 repetitions: 24 runs)' }).click()
    const chart = page.locator('[data-chart="sweep"]')
    await chart.waitFor({ timeout: 120_000 }).catch(async (e) => {
      await page.screenshot({ path: join(RESULTS, 'charts-debug.png'), fullPage: true })
      throw e
    })
    await chart.locator('.waiting').waitFor({ state: 'detached', timeout: 120_000 })
    await page.getByLabel('Metric', { exact: true }).selectOption('rr:MBps')
    await expect.poll(async () => (await scales('sweep')).x, { timeout: 120_000 }).toBe('logarithmic')
    await expect(page.getByLabel('iodepth axis scale').locator('option:checked').textContent()).resolves.toBe(
      'x: auto (log)',
    )
    // three repetitions with a seed each: an interval at each of the four depths, per scheduler
    await expect
      .poll(async () => (await series('sweep')).map((s) => [s.label, s.errorBars]), { timeout: 120_000 })
      .toEqual(SCHEDULERS.map((s) => [s, DEPTHS.length]))
    await page.getByLabel('iodepth axis scale').selectOption('linear')
    await expect.poll(async () => (await scales('sweep')).x).toBe('linear')
    await page.getByLabel('iodepth axis scale').selectOption('auto')
    await expect.poll(async () => (await scales('sweep')).x).toBe('logarithmic')
    await shots('sweep', '[data-chart="sweep"]')
    // the range beside the listed values is not used, and says so; typing in it sweeps it instead
    const range = page.getByTestId('sweep-range')
    await expect(range.getAttribute('data-unused')).resolves.toBe('true')
    await expect(range.textContent()).resolves.toContain('not used: the values below are')
    await page.getByLabel('To', { exact: true }).fill('8')
    await expect(page.getByLabel('Values').inputValue()).resolves.toBe('')
    await expect(range.getAttribute('data-unused')).resolves.toBe('false')
    await expect(page.getByRole('button', { name: /Run sweep \(\d+ × 2/ }).count()).resolves.toBe(1)
  }, 400_000)

  it('gives a 2 s run beside two 60 s ones a time axis of its own', async () => {
    await setSpec(uneven)
    await page.keyboard.press('Control+Enter')
    await page.locator('tr[data-label="deadline"] td.num').first().waitFor({ timeout: 120_000 })
    await page.getByText(/Done in/).waitFor({ timeout: 120_000 })
    // the premise, from the table: the runs' lengths
    const length = async (l: string) =>
      Number(await page.locator(`tr[data-label="${l}"] td[data-metric="run:seconds"]`).first().textContent())
    const [long, short] = [await length('none'), await length('bfq')]
    expect(await length('deadline')).toBe(long)
    expect(long / short).toBeGreaterThan(10)

    // the throughput over time in per cent of each run
    const time = page.locator('[data-chart="throughput"]').getByLabel('Time axis')
    await expect.poll(async () => (await axes('throughput')).x).toMatchObject({ min: 0, max: 100 })
    await expect(time.locator('option:checked').textContent()).resolves.toBe('time: auto (% of each run)')
    // the sector pictures each on its own seconds, their position axis shared
    const sectorTime = page
      .getByRole('region', { name: 'Sector over time per scheduler' })
      .getByLabel('Time axis')
    await expect.poll(async () => (await axes('sectors-bfq')).x.max).toBeCloseTo(short, 1)
    expect((await axes('sectors-none')).x.max).toBeCloseTo(long, 0)
    expect((await axes('sectors-bfq')).y.max).toBe((await axes('sectors-none')).y.max)
    // their ticks as people write numbers, the run's end too (not "60.0" or "2.07")
    for (const chart of ['sectors-none', 'sectors-bfq'])
      for (const a of Object.values(await axes(chart)))
        for (const t of a.ticks) expect(t, chart).toBe(num(Number(t.replace(/,/g, ''))))
    // the latency CDF's log axis labelled level, as the other log axes are
    expect((await axes('latency-cdf')).x.rotation).toBe(0)
    expect((await axes('latency-cdf')).x.ticks.filter(Boolean).length).toBeGreaterThan(2)
    await shots('uneven')

    // one shared axis when asked: the short run in its first thirtieth
    await time.selectOption('shared')
    await expect.poll(async () => (await axes('throughput')).x.max).toBeGreaterThanOrEqual(long)
    await sectorTime.selectOption('shared')
    await expect.poll(async () => (await axes('sectors-bfq')).x.max).toBeCloseTo(long, 0)
    await page
      .locator('[data-chart="throughput"]')
      .screenshot({ path: join(RESULTS, 'charts-uneven-shared.png') })
    await time.selectOption('auto')
    await sectorTime.selectOption('auto')
    await expect.poll(async () => (await axes('throughput')).x.max).toBe(100)
    await expect.poll(async () => (await axes('sectors-bfq')).x.max).toBeCloseTo(short, 1)
  }, 150_000)

  it('keeps one time axis when the runs are about as long', async () => {
    await setSpec(mixed)
    await page.keyboard.press('Control+Enter')
    await page.locator('tr[data-label="deadline"]').waitFor({ state: 'detached', timeout: 120_000 })
    await page.getByText(/Done in/).waitFor({ timeout: 120_000 })
    await expect.poll(async () => (await axes('throughput')).x.max).toBeLessThan(10)
    await expect(
      page
        .locator('[data-chart="throughput"]')
        .getByLabel('Time axis')
        .locator('option:checked')
        .textContent(),
    ).resolves.toBe('time: auto (shared)')
  }, 150_000)

  it('keeps a chart’s title whole at 1024 px, its controls and a note wrapping below it', async () => {
    // a writer whose buffered writes stay in a modern host's cache for 3 s: its chart says so beside
    // the controls
    await setSpec({
      name: 'writer-in-the-cache',
      device: { preset: 'hdd-2003-ide' },
      host: { preset: 'linux-modern' },
      workload: {
        files: [
          { name: 'foo', size: '64M' },
          { name: 'bar', size: '32M' },
        ],
        processes: [
          {
            name: 'writer',
            type: 'dd',
            params: { op: 'write', file: 'foo', bs: '1M', count: 64, loop: true },
          },
          { name: 'reader', type: 'cat', params: { file: 'bar', size: '32M' }, startMs: 500 },
        ],
        stop: { processes: ['reader'], maxSeconds: 3 },
      },
      schedulers: ['noop', 'deadline'],
    })
    await page.keyboard.press('Control+Enter')
    await page.getByText(/Done in/).waitFor({ timeout: 120_000 })
    await page.setViewportSize({ width: 1024, height: 700 })
    const chart = page.locator('[data-chart="process-over-time"]')
    await chart.getByLabel('Process', { exact: true }).selectOption('writer')
    await chart.getByTestId('process-time-missing').waitFor()
    const title = chart.locator('.title')
    await expect(title.textContent()).resolves.toBe(
      'Throughput of writer over time (its requests, read + write)',
    )
    // not cut short with an ellipsis: all of it shows
    await expect
      .poll(() => title.evaluate((el) => (el as unknown as { scrollWidth: number }).scrollWidth))
      .toBeLessThanOrEqual(
        await title.evaluate((el) => (el as unknown as { clientWidth: number }).clientWidth),
      )
    await page.setViewportSize({ width: 1440, height: 900 })
  }, 150_000)

  it('logged no errors in the page', () => {
    expect(errors).toEqual([])
  })
})
