// End to end on real hardware (root, fio), in Chromium through the browser host: a quick test run
// for real on a test file in a directory the user picks, from the Start page's quick-tests panel —
// its size as `quick --size` takes it (a bad one said and refused), the lab's test file made in the
// directory and removed afterwards, the real rows in the same table as their simulated companions,
// and nothing left behind (no loop device, no fio). The directory is under /tmp, on an ext4 file
// system of the test's own on a loop device of its own (as test/real/app-dir.test.ts): the
// scheduler switched is that loop device's, never the system disk's. Pictures of the panel with its
// size field at 1440 and 1024 wide, light and dark, go to test-results/quick-dir-*.png.
import { execFileSync, spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_QUICK_SCHEDULERS } from '../../src/shared/experiment/quick-tests'
import {
  activeScheduler,
  cleanupDir,
  describeReal,
  ext4In,
  KERNEL_OFFERED,
  labDirsIn,
  tempDir,
} from '../real/real-env'
import { chromiumAvailable, RESULTS } from './browser'
import type { LabHost } from './lab-host'
import { closeLabPage, openLabPage } from './lab-page'
import { idle } from './page-waits'

/** `losetup -a`'s lines that name a file under `dir` (the devices attached there). */
const loopsIn = (dir: string): string[] =>
  execFileSync('losetup', ['-a'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes(`${dir}/`))

/** The fio processes that are this test's: started under it, or with a file under `dir` open. */
function fioOf(dir: string): number[] {
  const pgrep = spawnSync('pgrep', ['-x', 'fio'], { encoding: 'utf8' })
  const pids = pgrep.stdout.split('\n').filter(Boolean).map(Number)
  const parent = (pid: number): number =>
    Number(/^\d+ \(.*\) \S (\d+)/s.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1] ?? 0)
  const ours = (pid: number): boolean => {
    try {
      for (let p = parent(pid); p > 1; p = parent(p)) if (p === process.pid) return true
      return readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try {
          return readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith(`${dir}/`)
        } catch {
          return false
        }
      })
    } catch {
      return false // gone meanwhile
    }
  }
  return pids.filter(ours)
}

describeReal('quick tests for real on a file in a chosen directory, in Chromium (root, fio)', () => {
  describe.runIf(chromiumAvailable())('through the browser host', () => {
    let host: LabHost
    let browser: Browser
    let page: Page
    let dir = ''
    let bench = ''
    let restoreEnv: (() => void) | undefined
    let disk = { device: '', name: '', file: '' }
    const errors: string[] = []
    const panel = () => page.getByTestId('quick-tests')

    /** The panel at 1440 and 1024 wide, light and dark; light after. */
    async function shots(name: string): Promise<void> {
      // the sticky header and status line not over the panel's picture
      await page.addStyleTag({ content: 'header, footer { position: static !important }' })
      for (const width of [1440, 1024])
        for (const theme of ['light', 'dark']) {
          await page.setViewportSize({ width, height: 900 })
          await page.getByLabel('Theme').selectOption(theme)
          await panel().scrollIntoViewIfNeeded()
          await idle(page)
          await panel().screenshot({ path: join(RESULTS, `quick-dir-${name}-${width}-${theme}.png`) })
        }
      await page.getByLabel('Theme').selectOption('light')
      await page.setViewportSize({ width: 1440, height: 900 })
    }

    beforeAll(async () => {
      dir = tempDir('iosched-e2e-quickdir-')
      restoreEnv = labDirsIn(dir)
      ;({ disk, bench } = ext4In(dir, 192, ['-o', 'noatime']))
      ;({ host, browser, page } = await openLabPage(errors, { viewport: { width: 1440, height: 900 } }))
      await mkdir(RESULTS, { recursive: true })
    }, 180_000)

    afterAll(async () => {
      await host?.lab.disposeAndWait()
      await closeLabPage(host, browser)
      restoreEnv?.()
      cleanupDir(dir) // unmounts the file system, detaches its loop device
    })

    it('takes the test files’ size as `quick --size` does: KDiskMark’s 1G first, a bad size said', async () => {
      await panel().waitFor()
      const size = page.getByTestId('quick-size')
      await expect(size.inputValue()).resolves.toBe('1G')
      await size.fill('1k')
      await panel()
        .getByText('Test file size: expects a size of at least 4k, like 64M or 1G, got "1k".')
        .waitFor()
      await expect(page.getByTestId('quick-simulate').isDisabled()).resolves.toBe(true)
      await expect(page.getByTestId('quick-real').isDisabled()).resolves.toBe(true)
      await shots('bad-size')
      await size.fill('64M')
      await expect(panel().getByRole('alert').count()).resolves.toBe(0)
      await shots('panel')
    }, 60_000)

    it('runs one set for real on a file in the directory: real rows beside simulated ones, nothing left', async () => {
      for (const n of ['SEQ1M Q8T1', 'SEQ1M Q1T1', 'RND4K Q32T16', 'Database profile'])
        await panel().getByRole('checkbox', { name: n, exact: true }).uncheck()
      await expect(
        panel().getByRole('checkbox', { name: 'RND4K Q1T1', exact: true }).isChecked(),
      ).resolves.toBe(true)
      await page.getByLabel('Seconds per test').fill('1')
      await page.getByTestId('quick-dir').fill(bench)
      await page.getByTestId('quick-real').click()
      await page.getByRole('heading', { name: 'Run “quick-rnd4k-q1t1” for real' }).waitFor()
      await expect(page.getByTestId('target-dir').inputValue()).resolves.toBe(bench)
      // the size typed in is the test file's: 64 MiB, not KDiskMark's 1 GiB (which this 192 MiB
      // file system could not hold)
      const target = page.getByTestId('real-target')
      await target.getByText(`a test file of 64 MiB in ${bench}`).waitFor({ timeout: 60_000 })
      await expect(target.textContent()).resolves.toContain(`the scheduler of /dev/${disk.name} is switched`)
      await expect(page.getByTestId('real-job-file').textContent()).resolves.toMatch(/^size=64m$/m)
      await page.getByRole('checkbox', { name: 'simulate it too (side by side)' }).check()
      // ready once the preview of the changed options is back
      await page.locator('[data-testid="run-real"]:enabled').waitFor()
      // the lab's test file appears in the directory while it runs
      const seen = new Set<string>()
      const look = setInterval(() => {
        for (const f of readdirSync(bench)) seen.add(f)
      }, 100)
      try {
        await page.getByTestId('run-real').click()
        await page.getByText(/Done in/).waitFor({ timeout: 300_000 })
      } finally {
        clearInterval(look)
      }
      expect([...seen]).toEqual([expect.stringMatching(/^iosched-lab-run-\w+$/)])
      // the real rows in the Comparison table beside their simulated companions, each marked
      const table = page.getByRole('table', { name: 'Comparison' })
      await table.waitFor()
      const rows = await table.locator('tbody tr').evaluateAll((trs) =>
        trs.map((tr) => ({
          label: tr.getAttribute('data-label') ?? '',
          kind: tr.getAttribute('data-kind'),
        })),
      )
      const real = rows.filter((r) => r.kind === 'real').map((r) => r.label)
      const simulated = rows.filter((r) => r.kind === 'simulated').map((r) => r.label)
      expect(real.length, JSON.stringify(rows)).toBeGreaterThanOrEqual(1)
      // a real row per scheduler the kernel offers (bfq is optional), each beside its simulated
      // companion, named "… (real)"
      expect(simulated).toEqual([...DEFAULT_QUICK_SCHEDULERS])
      expect(real).toEqual(
        DEFAULT_QUICK_SCHEDULERS.filter((x) => KERNEL_OFFERED.includes(x)).map((x) => `${x} (real)`),
      )
      for (const label of real) {
        const row = table.locator(`tbody tr[data-kind="real"][data-label="${label}"]`)
        await expect(row.locator('td[data-meta="source"]').textContent()).resolves.toBe('real')
        const mbps = await row.locator('td[data-metric="RND4K Q1T1 read:MBps"]').first().textContent()
        expect(Number((mbps ?? '').replace(/,/g, '').split(' ')[0])).toBeGreaterThan(0)
      }
      // the lab's test file went; no loop device of the run's, no fio left; the scheduler is back
      expect(readdirSync(bench)).toEqual([])
      expect(loopsIn(dir)).toEqual([expect.stringContaining(`${disk.device}: `)])
      expect(fioOf(dir)).toEqual([])
      expect(activeScheduler(disk.name)).toBe('mq-deadline')
      expect(errors).toEqual([])
    }, 420_000)
  })
})
