// End to end: the setup page's checks in Chromium — the JSON tab's syntax error with its line and
// column (never "valid" for text that does not parse), every problem of a spec at once, each a
// link to its field (or to its place in the JSON text when the form has no field for it), an empty
// experiment name refused; and the work estimate: a run beyond the work limits refused with its
// reasons until "Allow large runs" is ticked, then its progress shown against its simulated-time
// bound, and cancelled. Screenshots go to test-results/.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumAvailable, launchChromium, RESULTS } from './browser'
import { startLabHost } from './lab-host'
import type { LabHost } from './lab-host'

const several = {
  name: 'several problems',
  colour: 'blue',
  device: { preset: 'ssd-sata-mlc' },
  workload: {
    processes: [{ name: 'rr', type: 'random-read', params: { size: 'huge', count: 10 }, startMs: -5 }],
  },
  schedulers: ['noop', 'frob', { name: 'deadline', tunables: { fifo_batch: -3 } }],
  repetitions: 0,
}

/** 10^12 random reads with 10^7 s of simulated time: it would run until killed. */
const huge = {
  name: 'huge',
  device: { preset: 'ssd-sata-mlc' },
  workload: {
    processes: [{ name: 'rr', type: 'random-read', params: { count: 1e12 } }],
    stop: { maxSeconds: 1e7 },
  },
  schedulers: ['noop'],
}

describe.runIf(chromiumAvailable())('the setup page’s checks in Chromium', () => {
  let host: LabHost
  let browser: Browser
  let page: Page
  const errors: string[] = []
  const list = () => page.locator('.issues')
  const links = () => list().locator('button.issue-link')
  const json = () => page.getByLabel('Spec JSON')
  /** The spec path of the field that has the focus (the nearest element marked with one). */
  const focusedPath = () =>
    page.evaluate(() => {
      // (no DOM types in the test's project: the page's globals by hand)
      const d = globalThis as unknown as {
        document: { activeElement: { closest(s: string): { getAttribute(n: string): string } | null } | null }
      }
      return d.document.activeElement?.closest('[data-path]')?.getAttribute('data-path') ?? null
    })

  beforeAll(async () => {
    ;[host, browser] = await Promise.all([startLabHost(), launchChromium()])
    await mkdir(RESULTS, { recursive: true })
    page = await browser.newPage({ viewport: { width: 1360, height: 900 } })
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto(host.server.url)
    await page.getByRole('button', { name: 'Setup' }).click()
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await host?.close()
  })

  it('says where the JSON text does not parse, and does not call it valid', async () => {
    await page.getByRole('tab', { name: 'JSON' }).click()
    await json().fill('{\n  "name": "x",\n  oops\n}')
    await expect(list().textContent()).resolves.toContain(
      'line 3, column 3: the JSON text does not parse: expected a "key" in double quotes, found "o"',
    )
    await expect(page.getByText('The spec is valid.').count()).resolves.toBe(0)
    await expect(page.getByRole('button', { name: 'Apply' }).isDisabled()).resolves.toBe(true)
    // the link puts the caret where the text goes wrong
    await links().first().click()
    const caret = await json().evaluate((t) => (t as unknown as { selectionStart: number }).selectionStart)
    expect(caret).toBe('{\n  "name": "x",\n  '.length)
    await page.locator('.setup').screenshot({ path: join(RESULTS, 'setup-json-syntax.png') })
  })

  it('lists every problem of the edited text at once, before and after Apply', async () => {
    await json().fill(JSON.stringify(several, null, 2))
    const all = [
      'colour',
      'workload.processes[0].params.size',
      'workload.processes[0].startMs',
      'schedulers[1]',
      'schedulers[2].tunables.fifo_batch',
      'repetitions',
    ]
    await list().getByText('6 problems in the edited JSON (not applied yet)').waitFor()
    await expect(links().locator('code').allTextContents()).resolves.toEqual(all)
    await page.getByRole('button', { name: 'Apply' }).click()
    await list().getByText('6 problems to fix before running').waitFor()
    await expect(links().locator('code').allTextContents()).resolves.toEqual(all)
  })

  it('takes each problem to its field in the form, opening what is folded', async () => {
    await page.getByRole('tab', { name: 'Form' }).click()
    const go = (path: string) =>
      links()
        .filter({ has: page.getByText(path, { exact: true }) })
        .click()
    await go('workload.processes[0].startMs')
    await expect(focusedPath()).resolves.toBe('workload.processes[0].startMs')
    await expect(page.locator('[data-path="workload.processes[0].startMs"]').isVisible()).resolves.toBe(true)
    await go('schedulers[2].tunables.fifo_batch')
    await expect(focusedPath()).resolves.toBe('schedulers[2].tunables.fifo_batch')
    await go('repetitions')
    await expect(focusedPath()).resolves.toBe('repetitions')
    // an entry as a whole: its first control
    await go('schedulers[1]')
    await expect(focusedPath()).resolves.toBe('schedulers[1].name')
    await page.locator('.setup').screenshot({ path: join(RESULTS, 'setup-all-problems.png') })
    // a key the form has no field for: its place in the JSON text
    await go('colour')
    await expect(page.getByRole('tab', { name: 'JSON' }).getAttribute('aria-selected')).resolves.toBe('true')
    const picked = await json().evaluate((t) => {
      const a = t as unknown as { value: string; selectionStart: number; selectionEnd: number }
      return a.value.slice(a.selectionStart, a.selectionEnd)
    })
    expect(picked).toBe('"colour": "blue"')
  })

  it('refuses an empty experiment name at its field', async () => {
    await json().fill(JSON.stringify({ ...several, colour: undefined, repetitions: 1, schedulers: ['noop'] }))
    await page.getByRole('button', { name: 'Apply' }).click()
    await page.getByRole('tab', { name: 'Form' }).click()
    await page.getByLabel('Experiment name').fill('')
    await list().getByText('name').first().waitFor()
    await expect(list().textContent()).resolves.toContain('name: must not be empty or only spaces')
    await expect(page.getByLabel('Experiment name').getAttribute('aria-invalid')).resolves.toBe('true')
    await expect(page.getByRole('button', { name: 'Run', exact: true }).isDisabled()).resolves.toBe(true)
    await page
      .locator('[data-section="experiment"]')
      .screenshot({ path: join(RESULTS, 'setup-empty-name.png') })
  })

  it('shows the work estimate, and refuses a run beyond the limits until told to run it', async () => {
    await page.getByRole('tab', { name: 'JSON' }).click()
    await json().fill(JSON.stringify(huge, null, 2))
    await page.getByRole('button', { name: 'Apply' }).click()
    await page.getByRole('tab', { name: 'Form' }).click()
    const work = page.getByTestId('work-estimate')
    await work.getByText(/more than the limit of 1e9 requests/).waitFor()
    await expect(work.textContent()).resolves.toContain(
      'up to 1e12 I/O requests in one run: the I/O its processes ask for',
    )
    await page
      .locator('[data-section="experiment"]')
      .screenshot({ path: join(RESULTS, 'setup-work-limits.png') })
    // Run stays on the setup and says why
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await page.getByText('The run is beyond the work limits').waitFor()
    await expect(page.getByRole('button', { name: 'Setup' }).getAttribute('aria-current')).resolves.toBe(
      'page',
    )
    // allowed: it runs, its progress against the simulated-time bound, and Esc cancels it
    await page.getByLabel('Allow large runs').check()
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    const row = page.locator('.progress .row').first()
    await row
      .locator('.sim')
      .getByText(/ \/ 10,000,000 s$/)
      .waitFor({ timeout: 30_000 })
    await page.locator('section.progress').screenshot({ path: join(RESULTS, 'run-progress-bound.png') })
    await page.keyboard.press('Escape')
    await page.getByText('Cancelled.').waitFor({ timeout: 30_000 })
    expect(errors).toEqual([])
  })

  it('writes a tunable’s bounds with every digit and the thousands grouped', async () => {
    await page.getByRole('button', { name: 'Setup' }).click()
    await page.getByRole('tab', { name: 'JSON' }).click()
    await json().fill(JSON.stringify({ ...huge, name: 'bounds', schedulers: ['deadline', 'cfq'] }, null, 2))
    await page.getByRole('button', { name: 'Apply' }).click()
    await page.getByRole('tab', { name: 'Form' }).click()
    const bounds = (path: string) => page.locator(`[data-path="${path}"] .range`).textContent()
    // they ran together ("0…1073741824") and wrapped in the middle at 1024 px
    await expect(bounds('schedulers[0].tunables.read_expire')).resolves.toBe(' (1…600,000)')
    await expect(bounds('schedulers[1].tunables.back_seek_max')).resolves.toBe(' (0…1,073,741,824)')
    expect(errors).toEqual([])
  })

  it('shows an experiment’s whole description, as tall as its text', async () => {
    const description =
      'Published measurement A (LKML, February 2003, Linux 2.5.61): the time to cat a 100 MB file while a looping, buffered dd writes 512 MB over and over on the same IDE disk. Measured: deadline 48 s, CFQ v1 27 s, anticipatory 3.8 s (2.4 elevator 42 s).'
    await page.getByRole('tab', { name: 'JSON' }).click()
    await json().fill(JSON.stringify({ ...huge, name: 'described', description }, null, 2))
    await page.getByRole('button', { name: 'Apply' }).click()
    await page.getByRole('tab', { name: 'Form' }).click()
    const field = page.getByLabel('Description', { exact: true })
    await expect(field.inputValue()).resolves.toBe(description)
    // nothing of it scrolled out of sight (a one-line input showed its first 60 characters)
    for (const width of [1360, 1024]) {
      await page.setViewportSize({ width, height: 900 })
      const box = await field.evaluate((e) => {
        const x = e as unknown as {
          scrollWidth: number
          clientWidth: number
          scrollHeight: number
          clientHeight: number
        }
        return { wide: x.scrollWidth - x.clientWidth, tall: x.scrollHeight - x.clientHeight }
      })
      expect(box, `at ${width} px`).toEqual({ wide: 0, tall: 0 })
    }
    await page.setViewportSize({ width: 1360, height: 900 })
    // it still edits the spec's description
    await field.fill('short')
    await page.getByRole('tab', { name: 'JSON' }).click()
    await expect(json().inputValue()).resolves.toContain('"description": "short"')
    await page.getByRole('tab', { name: 'Form' }).click()
    expect(errors).toEqual([])
  })
})
