// End to end: the standard quick tests from the Start page, in Chromium through the browser host —
// the sets to choose (KDiskMark's defaults ticked), a device preset, one click that simulates them
// as one experiment, the results in the Results view with the disk-mark summary (a row per test,
// read and write MB/s and IOPS per scheduler) beside the usual table, and the same sets handed to
// the real run's panel. Pictures of the panel, the results and the real run's panel at 1440 × 900 and 1024 × 700, light
// and dark, go to test-results/quick-*.png.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumAvailable, RESULTS } from './browser'
import { closeLabPage, openLabPage } from './lab-page'
import { idle } from './page-waits'
import type { LabHost } from './lab-host'

describe.runIf(chromiumAvailable())('quick tests in Chromium, through the browser host', () => {
  let host: LabHost
  let browser: Browser
  let page: Page
  const errors: string[] = []
  const panel = () => page.getByTestId('quick-tests')

  /** The window at both widths, light and dark (`show`: a test id scrolled into view); light after. */
  async function shots(name: string, show?: string): Promise<void> {
    for (const [width, height] of [
      [1440, 900],
      [1024, 700],
    ])
      for (const theme of ['light', 'dark']) {
        await page.setViewportSize({ width, height })
        await page.getByLabel('Theme').selectOption(theme)
        if (show) await page.getByTestId(show).scrollIntoViewIfNeeded()
        await idle(page)
        await page.screenshot({ path: join(RESULTS, `quick-${name}-${width}-${theme}.png`) })
      }
    await page.getByLabel('Theme').selectOption('light')
    await page.setViewportSize({ width: 1440, height: 900 })
  }

  beforeAll(async () => {
    ;({ host, browser, page } = await openLabPage(errors, { viewport: { width: 1440, height: 900 } }))
    await mkdir(RESULTS, { recursive: true })
  }, 180_000)

  afterAll(() => closeLabPage(host, browser))

  it('offers the sets on the Start page, KDiskMark’s defaults ticked', async () => {
    await panel().waitFor()
    const ticked = async (name: string) => panel().getByRole('checkbox', { name, exact: true }).isChecked()
    for (const n of ['SEQ1M Q8T1', 'SEQ1M Q1T1', 'RND4K Q32T16', 'RND4K Q1T1', 'Database profile'])
      await expect(ticked(n)).resolves.toBe(true)
    for (const n of ['RND4K Q32T1', 'SEQ128K Q32T1', 'Streaming read next to a random writer'])
      await expect(ticked(n)).resolves.toBe(false)
    await expect(panel().getByTestId('quick-total').textContent()).resolves.toContain(
      '5 sets, one after another: 85 s per scheduler',
    )
    await shots('start')
  }, 60_000)

  it('says what is missing before it runs', async () => {
    for (const n of ['SEQ1M Q8T1', 'SEQ1M Q1T1', 'RND4K Q32T16', 'RND4K Q1T1', 'Database profile'])
      await panel().getByRole('checkbox', { name: n, exact: true }).uncheck()
    await panel().getByText('Choose at least one set.').waitFor()
    await expect(page.getByTestId('quick-simulate').isDisabled()).resolves.toBe(true)
    await panel().getByRole('checkbox', { name: 'SEQ1M Q1T1', exact: true }).check()
    await page.getByLabel('Seconds per test').fill('0')
    await panel().getByText('Seconds per test: more than 0, at most 600.').waitFor()
    await expect(page.getByTestId('quick-real').isDisabled()).resolves.toBe(true)
    // the test files' size as `quick --size` takes it: KDiskMark's 1 GiB unless told, a bad one said
    await page.getByLabel('Seconds per test').fill('1')
    const size = page.getByTestId('quick-size')
    await expect(size.inputValue()).resolves.toBe('1G')
    for (const bad of ['lots', '1k']) {
      await size.fill(bad)
      await panel()
        .getByText(`Test file size: expects a size of at least 4k, like 64M or 1G, got "${bad}".`)
        .waitFor()
      await expect(page.getByTestId('quick-simulate').isDisabled()).resolves.toBe(true)
      await expect(page.getByTestId('quick-real').isDisabled()).resolves.toBe(true)
    }
    await size.fill('1G')
  })

  it('simulates the chosen sets in one click, the results in the Results view', async () => {
    await panel().getByRole('checkbox', { name: 'Database profile', exact: true }).check()
    await page.getByLabel('Seconds per test').fill('0.2')
    await page.getByLabel('Quick tests device preset').selectOption('nullblk')
    await page.getByTestId('quick-simulate').click()
    await page.getByText(/Done in/).waitFor({ timeout: 120_000 })
    await expect(page.locator('.context').textContent()).resolves.toMatch(/quick-tests — device nullblk/)
    const summary = page.getByTestId('quick-summary')
    await summary.waitFor()
    const heads = await summary.locator('thead tr').first().locator('th').allTextContents()
    expect(heads.map((h) => h.trim())).toEqual(['test', 'none', 'mq-deadline', 'kyber', 'bfq'])
    const rows = await summary.locator('tbody th').allTextContents()
    expect(rows).toEqual(['SEQ1M Q1T1', 'DB data', 'DB log'])
    // the sequential test read and wrote; the log only wrote
    const cells = (row: number) => summary.locator('tbody tr').nth(row).locator('td').allTextContents()
    const seq = await cells(0)
    expect(seq).toHaveLength(16)
    for (const c of seq.slice(0, 4)) expect(Number(c.replace(/,/g, ''))).toBeGreaterThan(0)
    // the log only writes: its reads not measured (–), not a rate of 0
    const log = await cells(2)
    expect(log[0]).toBe('–')
    expect(Number(log[1].replace(/,/g, ''))).toBeGreaterThan(0)
    expect(log[2]).toBe('–')
    expect(Number(log[3].replace(/,/g, ''))).toBeGreaterThan(0)
    // the usual table has every test as a process of its own
    const table = page.getByRole('table', { name: 'Comparison' })
    await expect(table.textContent()).resolves.toContain('SEQ1M Q1T1 write')
    // the database's 4 fio jobs are one column group, as fio's group_reporting: their total
    const groupHead = table.locator('th.group[data-instances="4"]')
    await expect(groupHead.textContent()).resolves.toMatch(/^\s*DB data\s*× 4 jobs\s*$/)
    await expect(table.locator('th.group').allTextContents()).resolves.not.toContainEqual(
      expect.stringContaining('DB data/0'),
    )
    const mbps = (name: string) =>
      table
        .locator('tbody tr[data-label="none"]')
        .locator(`td[data-metric="${name}:MBps"]`)
        .first()
        .textContent()
        .then((t) => Number((t ?? '').replace(/,/g, '').split(' ')[0]))
    const folded = await mbps('DB data')
    expect(folded).toBeGreaterThan(0)
    // each instance on request: four column groups whose MB/s add up to the group's
    await page.getByTestId('each-instance').getByRole('checkbox').check()
    await table.locator('th.group', { hasText: 'DB data/3' }).waitFor()
    let sum = 0
    for (let i = 0; i < 4; i++) sum += await mbps(`DB data/${i}`)
    expect(sum).toBeGreaterThan(folded * 0.97)
    expect(sum).toBeLessThan(folded * 1.03)
    await page.getByTestId('each-instance').getByRole('checkbox').uncheck()
    await groupHead.waitFor()
    await shots('results', 'quick-summary')
  }, 180_000)

  it('hands the sets to the real run’s panel, its target as for any experiment', async () => {
    await page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('button', { name: 'Start', exact: true })
      .click()
    // the simulated results are not saved: the page asks before they go
    const asked: string[] = []
    page.once('dialog', (d) => {
      asked.push(d.message())
      void d.accept()
    })
    await page.getByTestId('quick-real').click()
    await page.getByRole('heading', { name: 'Run “quick-tests” for real' }).waitFor()
    await expect(page.getByTestId('real-target').textContent()).resolves.toMatch(/scratch loop device/)
    expect(asked).toEqual([expect.stringContaining('The work here is not saved')])
    await shots('real', 'run-real')
    expect(errors).toEqual([])
  }, 60_000)

  it('runs them for real on a test file in a directory typed in: the preview judges the directory', async () => {
    await page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('button', { name: 'Start', exact: true })
      .click()
    // a tmpfs makes no sense: no disk under it
    await page.getByTestId('quick-dir').fill('/dev/shm')
    await expect(page.getByTestId('quick-real').textContent()).resolves.toContain('Run for real on a file…')
    await page.getByTestId('quick-real').click()
    await page.getByRole('heading', { name: 'Run “quick-tests” for real' }).waitFor()
    await expect(page.getByRole('radio', { name: 'test file in a directory' }).isChecked()).resolves.toBe(
      true,
    )
    await expect(page.getByTestId('target-dir').inputValue()).resolves.toBe('/dev/shm')
    const problems = page.getByTestId('real-problems')
    await problems.getByText(/\/dev\/shm is on tmpfs .*no disk and no I\/O scheduler is under it/).waitFor()
    await expect(page.getByTestId('run-real').isDisabled()).resolves.toBe(true)
    // a directory that does not exist, and one that is not absolute, are said so
    await page.getByTestId('target-dir').fill('/no/such/dir')
    await problems
      .getByText('/no/such/dir does not exist: create it first, or pick another directory')
      .waitFor()
    await page.getByTestId('target-dir').fill('relative/dir')
    await problems
      .getByText('the directory must be an absolute path (starting with /), got "relative/dir"')
      .waitFor()
    await page.getByTestId('target-dir').fill('')
    await problems.getByText('give the directory for the test file').waitFor()
    // a directory on a disk's file system: the test file there, and the disk whose scheduler is switched
    await page.getByTestId('target-dir').fill(host.library)
    await page
      .getByTestId('real-target')
      .getByText(/a test file of .* in /)
      .waitFor()
    const target = (await page.getByTestId('real-target').textContent()) ?? ''
    expect(target).toMatch(/the scheduler of \/dev\/\S+ is switched\), removed afterwards/)
    await expect(page.getByTestId('real-job-file').textContent()).resolves.toContain(
      `filename=${host.library}/iosched-lab-run-XXXXXX/iosched-lab.test`,
    )
    // its sizes as fio's users write them (SEQ1M's bs=1m, RND4K's bs=4k), not as byte counts
    const job = (await page.getByTestId('real-job-file').textContent()) ?? ''
    expect(job).toMatch(/^bs=1m$/m)
    expect(job).toMatch(/^bs=4k$/m)
    expect(job).not.toMatch(/^bs=\d+$/m)
    expect(job).toMatch(/^size=\d+[kmg]$/m)
    await shots('real-dir', 'run-real')
    // at 1024 the options' check boxes keep their size beside their long labels (the trace box
    // was squeezed to a dot)
    await page.setViewportSize({ width: 1024, height: 700 })
    const boxes = await page
      .locator('label.check input[type="checkbox"]')
      .evaluateAll((els) =>
        els.map(
          (e) =>
            (e as unknown as { getBoundingClientRect(): { width: number } }).getBoundingClientRect().width,
        ),
      )
    await page.setViewportSize({ width: 1440, height: 900 })
    expect(boxes.length).toBeGreaterThanOrEqual(3)
    for (const w of boxes) expect(w).toBeGreaterThanOrEqual(12)
    // a fingerprint measures a device, not a file
    const fingerprint = page.getByRole('button', { name: /^Fingerprint/ })
    if (await fingerprint.count()) await expect(fingerprint.first().isDisabled()).resolves.toBe(true)
    expect(errors).toEqual([])
  }, 60_000)

  it('marks best only a difference the table shows, and never sets a scheduler against itself', async () => {
    // the schedulers' sequential writes on the SATA SSD differ below three significant figures
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Start' }).click()
    for (const n of ['SEQ1M Q1T1', 'RND4K Q32T16', 'RND4K Q1T1', 'Database profile'])
      await panel().getByRole('checkbox', { name: n, exact: true }).uncheck()
    await panel().getByRole('checkbox', { name: 'SEQ1M Q8T1', exact: true }).check()
    await page.getByLabel('Seconds per test').fill('1')
    await page.getByLabel('Quick tests device preset').selectOption('ssd-sata-mlc')
    await page.getByTestId('quick-simulate').click()
    await page.getByText(/Done in/).waitFor({ timeout: 120_000 })
    const table = page.getByRole('table', { name: 'Comparison' })
    // the why never sets a scheduler against itself ("none against none")
    await page.getByTestId('why-explanation').first().waitFor()
    await expect(page.getByTestId('why').textContent()).resolves.not.toMatch(/(\S+) against \1,/)
    // "best" marks a difference the table shows: never one of two cells that read the same (the
    // schedulers' sequential writes, 320 MB/s each)
    const byMetric = await table.locator('td[data-metric]').evaluateAll((tds) =>
      tds.map((td) => ({
        metric: td.getAttribute('data-metric')!,
        text: (td.textContent ?? '').trim(),
        best: td.classList.contains('best'),
      })),
    )
    const metricsShown = [...new Set(byMetric.map((c) => c.metric))]
    expect(metricsShown.length).toBeGreaterThan(8)
    for (const m of metricsShown) {
      const col = byMetric.filter((c) => c.metric === m)
      const plain = new Set(col.filter((c) => !c.best).map((c) => c.text))
      for (const c of col.filter((x) => x.best)) expect(plain.has(c.text), `${m}: best ${c.text}`).toBe(false)
    }
    expect(errors).toEqual([])
  }, 120_000)
})
