// End to end on real hardware: the built renderer in Chromium through the browser host (root
// here): the Devices view with the scratch target, the job file and command shown before running,
// then the flagship's reader and writer — made short — run for real on a scratch loop device with
// two schedulers, real and simulated rows side by side in one table. Screenshots in test-results/.
import { writeFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { repairAtStart } from '../../src/main/services/real/startup-repair'
import { crashedJournal } from '../real/crashed-journal'
import {
  KERNEL_OFFERED,
  OTHER_SCHEDULER,
  activeScheduler,
  cleanupDir,
  createLoop,
  describeReal,
  loopsUnder,
  tempDir,
} from '../real/real-env'
import { chromiumAvailable, launchChromium, RESULTS } from './browser'
import { startLabHost } from './lab-host'
import type { LabHost } from './lab-host'

const FLAGSHIP = 'gallery/streaming-read-under-write-2003/main'

/** The flagship's looping buffered writer and its reader, small enough for ≤ 3 s per scheduler. */
const shortFlagship = {
  name: 'reader-under-writer-short',
  description: 'The flagship’s writer (looping buffered dd) and reader (cat), small: 3 s per scheduler.',
  device: { preset: 'hdd-2003-ide' },
  host: { preset: 'linux-2003' },
  workload: {
    files: [
      { name: 'foo', size: '64M' },
      { name: '100m-file', size: '32M' },
    ],
    processes: [
      { name: 'writer', type: 'dd', params: { op: 'write', file: 'foo', bs: '1M', count: 64, loop: true } },
      { name: 'reader', type: 'cat', params: { file: '100m-file', size: '32M' }, startMs: 500 },
    ],
    stop: { processes: ['reader'], maxSeconds: 3 },
  },
  schedulers: ['noop', 'deadline'],
}

describeReal('real devices in the app, in Chromium (root, fio)', () => {
  describe.runIf(chromiumAvailable())('through the browser host', () => {
    let host: LabHost
    let browser: Browser
    let page: Page
    let dir = ''
    let disk = { device: '', name: '', file: '' }
    const errors: string[] = []
    const saved = { state: process.env.IOSCHED_LAB_STATE_DIR, scratch: process.env.IOSCHED_LAB_SCRATCH_DIR }
    const shot = async (name: string) => {
      // the sticky header and status line belong at the ends of a full-page picture
      await page.addStyleTag({ content: 'header, footer { position: static !important }' })
      await page.screenshot({ path: join(RESULTS, `${name}.png`), fullPage: true })
    }

    beforeAll(async () => {
      dir = tempDir('iosched-e2e-real-')
      // the lab's journals and scratch devices in a place of the test's own
      process.env.IOSCHED_LAB_STATE_DIR = join(dir, 'state')
      process.env.IOSCHED_LAB_SCRATCH_DIR = dir
      // a lab that crashed mid-run left the test's 256 MiB loop device on another scheduler: the host
      // repairs it at start
      disk = createLoop(dir, 256)
      writeFileSync(`/sys/block/${disk.name}/queue/scheduler`, OTHER_SCHEDULER)
      crashedJournal(join(dir, 'state'), disk)
      const startupRepair = repairAtStart(join(dir, 'state'))
      ;[host, browser] = await Promise.all([startLabHost({ real: { startupRepair } }), launchChromium()])
      await mkdir(RESULTS, { recursive: true })
      page = await browser.newPage({ viewport: { width: 1360, height: 900 } })
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
      page.on('pageerror', (e) => errors.push(e.message))
    }, 180_000)

    afterAll(async () => {
      await browser?.close()
      await host?.lab.disposeAndWait()
      await host?.close()
      process.env.IOSCHED_LAB_STATE_DIR = saved.state
      process.env.IOSCHED_LAB_SCRATCH_DIR = saved.scratch
      if (saved.state === undefined) delete process.env.IOSCHED_LAB_STATE_DIR
      if (saved.scratch === undefined) delete process.env.IOSCHED_LAB_SCRATCH_DIR
      cleanupDir(dir)
    })

    it('shows what was repaired at start', async () => {
      await page.goto(host.server.url)
      const notice = page.getByTestId('startup-repair')
      await notice.waitFor()
      await expect(notice.textContent()).resolves.toContain('Repaired after an earlier crash of a real run')
      await expect(notice.textContent()).resolves.toContain(
        `${disk.name}: scheduler ${OTHER_SCHEDULER} → mq-deadline`,
      )
      expect(activeScheduler(disk.name)).toBe('mq-deadline')
      await shot('8-startup-repair')
      await notice.getByRole('button', { name: 'Dismiss' }).click()
      await notice.waitFor({ state: 'detached' })
    })

    it('loads the short flagship and shows the Devices view: root, the scratch target, the job file', async () => {
      await page.getByRole('button', { name: `Open “${FLAGSHIP}”` }).click()
      await page.getByText('The spec is valid.').waitFor()
      await page.getByRole('tab', { name: 'JSON' }).click()
      await page.getByLabel('Spec JSON').fill(JSON.stringify(shortFlagship, null, 2))
      await page.getByRole('button', { name: 'Apply' }).click()
      await page.getByText('The spec is valid.').waitFor()
      await page.getByRole('button', { name: 'Devices' }).click()
      await expect(page.getByTestId('real-ready').textContent()).resolves.toContain('ready')
      const scratch = page.locator('tr[data-device="scratch"]')
      await expect(scratch.textContent()).resolves.toContain('scratch loop device')
      await expect(scratch.getByRole('radio').isChecked()).resolves.toBe(true)
      // the system disk is listed with why it is in use, and its active scheduler marked
      const vda = page.locator('tr[data-device="vda"]')
      if (await vda.count()) {
        await expect(vda.textContent()).resolves.toContain('system disk')
        await expect(vda.locator('.scheds .active').count()).resolves.toBe(1)
      }
      const job = page.getByTestId('real-job-file')
      await job.waitFor()
      await expect(job.textContent()).resolves.toMatch(/\[writer\][\s\S]*\[reader\]/)
      await expect(page.getByTestId('real-command').textContent()).resolves.toMatch(
        /^fio --output-format=json\+/,
      )
      await expect(page.getByTestId('real-target').textContent()).resolves.toContain('scratch loop device')
      await shot('8-devices-view')
    })

    it('refuses the system disk with the reason, before anything runs', async () => {
      const vda = page.locator('tr[data-device="vda"]')
      if (!(await vda.count())) return
      await vda.getByRole('radio').check()
      await page.getByLabel('Confirm the device name').fill('vda')
      const problems = page.getByTestId('real-problems')
      await problems.waitFor()
      await expect(problems.textContent()).resolves.toContain('refusing /dev/vda: it is in use')
      await expect(page.getByTestId('run-real').isDisabled()).resolves.toBe(true)
      await page.locator('tr[data-device="scratch"]').getByRole('radio').check()
      await page.getByTestId('real-problems').waitFor({ state: 'detached' })
    })

    it('runs it for real on a scratch loop device: real and simulated rows side by side', async () => {
      await page.getByLabel('Extra fio options').fill('--status-interval=1')
      await page.getByTestId('real-command').filter({ hasText: '--status-interval=1' }).waitFor()
      await page.getByTestId('run-real').click()
      await page.locator('.progress .row').first().waitFor()
      await expect(page.locator('.progress .row').count()).resolves.toBe(4)
      const labels = ['noop', 'noop (real)', 'deadline', 'deadline (real)']
      for (const l of labels)
        await page.locator(`tr[data-label="${l}"] td.num`).first().waitFor({ timeout: 90_000 })
      await page.getByText(/Done in/).waitFor({ timeout: 30_000 })
      const rows = await page
        .locator('table[aria-label="Comparison"] tbody tr')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-label')))
      expect(rows).toEqual(labels)
      await expect(page.locator('.context').textContent()).resolves.toMatch(
        /hdd-2003-ide \(simulated\) vs scratch loop device/,
      )
      // the same charts: one latency CDF line and one throughput series per row
      for (const c of ['throughput', 'latency-cdf', 'process-throughput']) {
        const card = page.locator(`[data-chart="${c}"]`)
        await expect(card.locator('.waiting').count(), `${c} drawn`).resolves.toBe(0)
      }
      // the real run was traced (blktrace, or the kernel's block tracepoints): its sectors are drawn
      const realSectors = page.locator('[data-chart="sectors-noop (real)"]')
      await expect.poll(() => realSectors.locator('.waiting').count(), { timeout: 30_000 }).toBe(0)
      await expect(page.getByTestId('real-info').textContent()).resolves.toContain('fio')
      // the scratch device went away with the run (the test's own stays)
      expect(loopsUnder(dir)).toEqual([disk.device])
      await shot('9-real-results')
      await page.setViewportSize({ width: 1360, height: 1100 })
      await page.evaluate(() =>
        (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0),
      )
      await page.screenshot({ path: join(RESULTS, '9-real-results-top.png') })
      await page.setViewportSize({ width: 1360, height: 900 })
    }, 150_000)

    it('fingerprints the scratch device into a preset the catalogue lists', async () => {
      await page.getByRole('button', { name: 'Devices' }).click()
      await page.getByLabel('Seconds per point').fill('1')
      await page.getByLabel('Preset name').fill('e2e-scratch')
      await page.getByRole('button', { name: 'Fingerprint', exact: true }).click()
      const outcome = page.getByTestId('fingerprint-outcome')
      // ten sweep points and the scheduler points, 1 s each, three passes: about 90 s on this
      // machine when it is busy
      await outcome.waitFor({ timeout: 180_000 })
      await expect(outcome.textContent()).resolves.toContain('e2e-scratch')
      // the ten sweep points (then the buffered writes of 1 MiB and 4 KiB, and the writes each
      // followed by fsync), then the QD32 reads under the kernel's other schedulers (bfq only
      // where the kernel has it)
      const others = KERNEL_OFFERED.filter((k) => k !== 'none')
      await expect(outcome.locator('tbody tr').count()).resolves.toBe(10 + others.length)
      await expect(outcome.locator('tbody tr').nth(7).textContent()).resolves.toContain('buffered-write')
      await expect(outcome.locator('tbody tr').nth(8).textContent()).resolves.toContain('buffered-randwrite')
      await expect(outcome.locator('tbody tr').nth(9).textContent()).resolves.toContain('qd1-fsync-write')
      await expect(
        outcome
          .locator('tbody tr')
          .nth(9 + others.length)
          .textContent(),
      ).resolves.toContain(`qd32-randread@${others[others.length - 1]}`)
      expect(loopsUnder(dir)).toEqual([disk.device])
      await shot('9-fingerprint')
      await outcome.getByRole('button', { name: 'Simulate the experiment on it' }).click()
      await page.getByText('The spec is valid.').waitFor()
      await expect(
        page.locator('select').filter({ hasText: 'e2e-scratch' }).count(),
      ).resolves.toBeGreaterThan(0)
    }, 240_000)

    it('validates the simulation on the scratch device, reusing that fingerprint: verdicts, cells, pairs', async () => {
      await page.getByRole('button', { name: 'Devices' }).click()
      const panel = page.getByTestId('validate-panel')
      await expect(panel.getByLabel('Quick matrix').isChecked()).resolves.toBe(true)
      // the fingerprint just made is offered for reuse
      await panel.getByLabel('Fingerprint to reuse').selectOption('e2e-scratch')
      for (const w of ['randread-qd32', 'reader-vs-direct-writer', 'reader-vs-buffered-writer'])
        await panel.getByLabel(`Workload ${w}`).uncheck()
      await expect(panel.getByLabel('Workload randread-qd1').isChecked()).resolves.toBe(true)
      await panel.getByLabel('Seconds per validation run').fill('1')
      await panel.getByTestId('validate-start').click()
      // the workload, then the fingerprint's sweep measured again
      await panel.getByTestId('validate-progress').filter({ hasText: 'stage 1 of 2: randread-qd1' }).waitFor()
      const report = panel.getByTestId('validate-report')
      await report.waitFor({ timeout: 180_000 })
      await expect(report.locator('[data-verdict]').count()).resolves.toBe(3)
      await expect(report.locator('[data-verdict="fingerprintResidual"]').textContent()).resolves.toMatch(
        /target ≤ 10 %/,
      )
      await expect(report.textContent()).resolves.toContain('preset e2e-scratch')
      // one row per scheduler the kernel offers (bfq only where it was built with it), and the
      // ones it lacks said apart
      const cells = await report
        .locator('[data-workload="randread-qd1"] tbody tr')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-cell')))
      expect(cells.sort()).toEqual(KERNEL_OFFERED.map((k) => `${k}/reader`).sort())
      if (!KERNEL_OFFERED.includes('bfq'))
        await expect(report.getByTestId('missing-schedulers').textContent()).resolves.toContain('bfq')
      await expect(report.locator('[data-workload="randread-qd1"] .ranking').textContent()).resolves.toMatch(
        /real: .+ > .+; simulated: .+ > .+/,
      )
      const pairs = await report.locator('[data-pair]').count()
      const none = await report.getByTestId('no-separable-pairs').count()
      expect(pairs > 0 || none === 1).toBe(true)
      // how far the machine moved since the fingerprint: a row per re-measured sweep point
      await expect(report.getByTestId('drift-summary').textContent()).resolves.toMatch(
        /moved by up to [\d.]+ %; \d+ of \d+ points beyond their noise/,
      )
      const drift = await report
        .locator('[data-drift]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-drift')))
      expect(drift).toContain('qd1-randread')
      expect(drift).not.toContain('buffered-write')
      expect(loopsUnder(dir)).toEqual([disk.device])
      await shot('9-validate')
      await panel.screenshot({ path: join(RESULTS, '9-validate-panel.png') })
    }, 240_000)

    it('without root: says real tests need root and how, refuses to run them, and still simulates', async () => {
      const uid = vi.spyOn(process, 'getuid').mockReturnValue(1000)
      try {
        await page.getByRole('button', { name: 'Devices' }).click()
        await page.getByRole('button', { name: 'Check again' }).click()
        const access = page.getByTestId('real-access')
        await access.getByText('not ready').waitFor()
        await expect(access.textContent()).resolves.toContain('Real device tests need root')
        await expect(access.textContent()).resolves.toContain('sudo npx iosched-lab serve')
        await expect(page.getByTestId('run-real').isDisabled()).resolves.toBe(true)
        await shot('10-devices-no-root')
        await page.getByRole('button', { name: 'Run', exact: true }).click()
        await page.getByText(/Done in/).waitFor({ timeout: 60_000 })
        await expect(page.locator('tr[data-label="noop"] td.num').count()).resolves.toBeGreaterThan(0)
        await expect(page.locator('tr[data-label="noop (real)"]').count()).resolves.toBe(0)
      } finally {
        uid.mockRestore()
      }
    }, 90_000)

    it('logged no errors in the page', () => {
      expect(errors).toEqual([])
    })
  })
})
