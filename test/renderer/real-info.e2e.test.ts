// End to end on real hardware (root, fio), in Chromium through the browser host: a real run says
// what it does before fio's first progress (preparing the scratch device, dropping the page cache,
// switching the scheduler, starting fio) and the real runs' overall ETA; its simulated companion
// has the real rows' time limit and host; the results show the system the real rows were measured
// on (kernel, CPU, memory, the device and its queue, the scratch file's file system and mount
// options); and a run cancelled during its start says "cancelled" in its rows, its table and its
// charts. Pictures at 1440 and 1024 wide, light and dark, go to test-results/real-info-*.png.
import { execFileSync } from 'node:child_process'
import { mkdir, readFile } from 'node:fs/promises'
import { cpus, release } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanupDir, describeReal, labDirsIn, loopsUnder, tempDir } from '../real/real-env'
import { chromiumAvailable, launchChromium, RESULTS } from './browser'
import { startLabHost } from './lab-host'
import type { LabHost } from './lab-host'
import { idle } from './page-waits'
import type { LabEvent } from '../../src/shared/api/lab-events'

/** A reader beside a looping writer, its limit long (30 s) so the run's own (2 s) is what counts. */
const spec = {
  name: 'real-info',
  description: 'A reader beside a looping buffered writer, cut short by the run’s time limit.',
  device: { preset: 'hdd-2003-ide' },
  host: { preset: 'linux-2003' },
  workload: {
    files: [
      { name: 'foo', size: '64M' },
      { name: 'bar', size: '32M' },
    ],
    processes: [
      { name: 'writer', type: 'dd', params: { op: 'write', file: 'foo', bs: '1M', count: 64, loop: true } },
      { name: 'reader', type: 'cat', params: { file: 'bar', size: '32M' }, startMs: 200 },
    ],
    stop: { processes: ['reader'], maxSeconds: 30 },
  },
  schedulers: ['noop', 'deadline'],
}

interface Seen {
  phases: string[]
  etas: string[]
  bounds: string[]
}

describeReal('real runs explain their start and show their system, in Chromium (root, fio)', () => {
  describe.runIf(chromiumAvailable())('through the browser host', () => {
    let host: LabHost
    let browser: Browser
    let page: Page
    let dir = ''
    const errors: string[] = []
    const events: LabEvent[] = []
    let restoreEnv: (() => void) | undefined

    /** The window at 1440 and 1024 wide, light and dark; light after. */
    async function shots(name: string, charts = true): Promise<void> {
      for (const width of [1440, 1024])
        for (const theme of ['light', 'dark']) {
          await page.setViewportSize({ width, height: 900 })
          await page.getByLabel('Theme').selectOption(theme)
          // redrawn in the theme in idle time (not chartsIn: a real row's sector chart stays
          // blank, saying blktrace would be needed)
          await idle(page)
          if (charts) await page.waitForTimeout(300)
          await page.evaluate(() =>
            (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0),
          )
          await page.screenshot({ path: join(RESULTS, `real-info-${name}-${width}-${theme}.png`) })
        }
      await page.getByLabel('Theme').selectOption('light')
      await page.setViewportSize({ width: 1440, height: 900 })
    }

    /** Record every phase and overall ETA the page shows from now on (they change within seconds). */
    const watch = () =>
      page.evaluate(() => {
        const g = globalThis as unknown as {
          document: { body: unknown; querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> }
          MutationObserver: new (f: () => void) => { observe(n: unknown, o: object): void }
          seen: { phases: string[]; etas: string[]; bounds: string[] }
        }
        g.seen = { phases: [], etas: [], bounds: [] }
        const note = () => {
          for (const [sel, into] of [
            ['[data-testid="run-phase"]', g.seen.phases],
            ['[data-testid="overall-eta"]', g.seen.etas],
            ['.progress .row .sim', g.seen.bounds],
          ] as const)
            for (const e of Array.from(g.document.querySelectorAll(sel))) {
              const t = (e.textContent ?? '').trim()
              if (t && !into.includes(t)) into.push(t)
            }
        }
        new g.MutationObserver(note).observe(g.document.body, {
          subtree: true,
          childList: true,
          characterData: true,
        })
      })
    const seen = () => page.evaluate(() => (globalThis as unknown as { seen: Seen }).seen)

    beforeAll(async () => {
      dir = tempDir('iosched-e2e-realinfo-')
      restoreEnv = labDirsIn(dir)
      ;[host, browser] = await Promise.all([startLabHost(), launchChromium()])
      host.lab.on((e) => events.push(e))
      await mkdir(RESULTS, { recursive: true })
      page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
      page.on('pageerror', (e) => errors.push(e.message))
      await page.goto(host.server.url)
      await page.getByRole('button', { name: 'Setup', exact: true }).click()
      await page.getByRole('tab', { name: 'JSON' }).click()
      await page.getByLabel('Spec JSON').fill(JSON.stringify(spec, null, 2))
      await page.getByRole('button', { name: 'Apply' }).click()
      await page.getByText('The spec is valid.').waitFor()
    }, 180_000)

    afterAll(async () => {
      await browser?.close()
      await host?.lab.disposeAndWait()
      await host?.close()
      restoreEnv?.()
      cleanupDir(dir)
    })

    it('says what the run does before fio reports, and the real runs’ overall ETA', async () => {
      await page.getByRole('button', { name: 'Devices' }).click()
      await expect(page.getByTestId('real-ready').textContent()).resolves.toContain('ready')
      await page.getByLabel('Time limit per run').fill('2')
      await page.getByTestId('real-command').waitFor()
      await watch()
      await page.getByTestId('run-real').click()
      await page.getByTestId('run-phase').first().waitFor({ timeout: 90_000 })
      await shots('start', false)
      await page.getByText(/Done in/).waitFor({ timeout: 120_000 })
      const s = await seen()
      // the companion simulated against the run's 2 s, not the spec's 30 s
      expect(s.bounds.length).toBeGreaterThan(0)
      for (const b of s.bounds) expect(b).toMatch(/ \/ 2 s$/)
      expect(s.phases.join('\n')).toMatch(/preparing the scratch device: writing its file in full/)
      expect(s.phases.join('\n')).toMatch(
        /dropping the page cache|switching loop\d+ to (none|mq-deadline)|starting fio|fio: setting up its jobs/,
      )
      expect(s.etas[0]).toMatch(/^— real runs: 0 of 2 done, about \d+ s left$/)
      // no phase is left once the runs are done
      await expect(page.getByTestId('run-phase').count()).resolves.toBe(0)
      expect(loopsUnder(dir)).toEqual([])
    }, 240_000)

    it('simulates the companion on the real rows’ host, and says so', async () => {
      await expect(page.getByTestId('run-notices').textContent()).resolves.toContain(
        "the simulated rows run on the host the real rows ran on (linux-modern with this machine, captured now), not on the spec's linux-2003",
      )
      await expect(page.locator('.context').textContent()).resolves.toContain(
        'host linux-modern (simulated), this machine (real)',
      )
    })

    it('shows the system the real rows were measured on', async () => {
      const system = page.getByTestId('real-system')
      await expect(system.locator('summary').textContent()).resolves.toContain(`kernel ${release()}`)
      await system.locator('summary').click()
      const fact = (k: string) => system.locator(`tr[data-fact="${k}"] td`).textContent()
      await expect(fact('kernel')).resolves.toContain(release())
      await expect(fact('CPU')).resolves.toMatch(new RegExp(`^${cpus().length} × `))
      await expect(fact('memory')).resolves.toMatch(/GiB/)
      await expect(fact('device')).resolves.toMatch(/^loop\d+$/)
      await expect(fact('device size')).resolves.toBe('256 MiB')
      await expect(fact('device rotational')).resolves.toMatch(/^(yes|no)$/)
      // the scheduler and nr_requests as each run had them
      await expect(fact('device scheduler')).resolves.toBe('none (noop #1); mq-deadline (deadline #1)')
      await expect(fact('device queue')).resolves.toMatch(/nr_requests \d+/)
      await expect(fact('backing file')).resolves.toMatch(
        new RegExp(`^${dir}/.+/scratch\\.img \\(direct I/O\\)$`),
      )
      // the scratch file's file system and mount options, as findmnt tells them
      const [type, target, options] = execFileSync(
        'findmnt',
        ['-n', '-o', 'FSTYPE,TARGET,OPTIONS', '--target', dir],
        {
          encoding: 'utf8',
        },
      )
        .trim()
        .split(/\s+/)
      const fs = await fact('file system')
      expect(fs).toContain(`${type} on `)
      expect(fs).toContain(`mounted at ${target} (`)
      for (const o of options.split(',').slice(0, 2)) expect(fs).toContain(o)
      await system.screenshot({ path: join(RESULTS, 'real-info-system.png') })
      await shots('results')
      // and in the reports, as a mailing-list reader gets them
      const exported = async (format: string): Promise<string> => {
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.locator(`[data-export="${format}"]`).click(),
        ])
        return readFile((await download.path())!, 'utf8')
      }
      const html = await exported('html')
      expect(html).toContain('<h2 id="system">System of the real runs</h2>')
      expect(html).toContain(release())
      expect(html).toContain(`${type} on `)
      const text = await exported('text')
      expect(text).toContain('system of the real runs:')
      expect(text).toContain(release())
    })

    it('says beside the Why panel’s stages what traced the real rows: blktrace, or the tracepoints', async () => {
      const real = events.flatMap((e) =>
        e.type === 'run:job-done' && e.result.source === 'real' ? [e.result] : [],
      )
      expect(real.map((r) => r.label).sort()).toEqual(['deadline', 'noop'])
      const sources = [...new Set(real.map((r) => r.why?.source))]
      expect(sources.length).toBe(1)
      expect(['blktrace', 'tracefs']).toContain(sources[0])
      const line = page.getByTestId('why').getByTestId('why-stage-source')
      await expect(line.textContent()).resolves.toMatch(
        sources[0] === 'blktrace'
          ? /^\s*Real runs' stages traced with blktrace\.\s*$/
          : /^\s*Real runs' stages traced with the kernel's block tracepoints via tracefs, where blktrace could not trace\.\s*$/,
      )
      await page.getByTestId('why').screenshot({ path: join(RESULTS, 'real-info-why.png') })
    })

    it('a run cancelled during its start says "cancelled" in its rows, table and charts', async () => {
      await page.getByRole('button', { name: 'Devices' }).click()
      await page.getByLabel('simulate it too (side by side)').uncheck()
      await page.getByLabel('Time limit per run').fill('20')
      await page.getByTestId('real-command').waitFor()
      await page.getByTestId('run-real').click()
      await page.getByTestId('run-phase').first().waitFor({ timeout: 60_000 })
      await page.getByRole('button', { name: 'Cancel', exact: true }).click()
      await page.locator('.progress .summary').getByText('Cancelled.').waitFor({ timeout: 60_000 })
      const states = await page
        .locator('.progress .row .eta')
        .evaluateAll((els) => els.map((e) => (e.textContent ?? '').trim()))
      expect(states).toEqual(['cancelled', 'cancelled'])
      for (const l of ['noop (real)', 'deadline (real)'])
        await expect(page.locator(`tr[data-label="${l}"] td.waiting`).textContent()).resolves.toContain(
          'cancelled',
        )
      await expect(page.getByText('Waiting for results…').count()).resolves.toBe(0)
      await expect(page.locator('[data-chart="throughput"] .waiting').textContent()).resolves.toBe(
        'Cancelled before a result came.',
      )
      // the scratch device went away with the cancel
      expect(loopsUnder(dir)).toEqual([])
      await shots('cancelled', false)
    }, 120_000)

    it('runs untraced at the user’s choice, and the results say so', async () => {
      await page.getByRole('button', { name: 'Devices' }).click()
      // traced by default: the request stages come from the kernel's block events
      await expect(page.getByTestId('real-trace').isChecked()).resolves.toBe(true)
      await page.getByTestId('real-trace').uncheck()
      await page.getByLabel('Time limit per run').fill('2')
      await page.getByTestId('real-command').waitFor()
      await page.getByTestId('run-real').click()
      await page.getByText(/Done in/).waitFor({ timeout: 120_000 })
      await expect(page.getByText('tracing was switched off for this run').count()).resolves.toBeGreaterThan(
        0,
      )
      expect(loopsUnder(dir)).toEqual([])
    }, 180_000)

    it('logged no errors in the page', () => {
      expect(errors).toEqual([])
    })
  })
})
