// npm run bench:ui [-- --runs N]
// The lab's front end, measured in Chromium through the browser host (a fresh production build):
//  1. pressing Run on the flagship (examples/streaming-read-under-write-2003.json) until the
//     table's first row and until the complete table, and the longest main-thread task meanwhile
//     (does the page stay responsive while results stream in?);
//  2. the first draw of a chart of 8 series × 10 000 points with LTTB decimation (#/bench).
// Figures, not assertions; best and median of N runs (default 3).
import { chromiumAvailable, launchChromium } from '../test/renderer/browser'
import { startLabHost } from '../test/renderer/lab-host'

const runsArg = process.argv.indexOf('--runs')
const runs = runsArg > 0 ? Math.max(1, Number(process.argv[runsArg + 1]) || 1) : 3
const FLAGSHIP = 'streaming-read-under-write-2003'

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const line = (name: string, xs: number[], unit: string): string =>
  `${name.padEnd(44)} best ${Math.min(...xs).toFixed(unit === 's' ? 2 : 1)} ${unit}   median ${median(xs).toFixed(unit === 's' ? 2 : 1)} ${unit}   (${xs.length} runs)`

if (!chromiumAvailable()) process.exit(1)
console.log('building the app and starting the browser host…')
const host = await startLabHost()
const browser = await launchChromium()
try {
  const page = await browser.newPage({ viewport: { width: 1360, height: 900 } })
  await page.goto(host.server.url)
  await page.getByRole('button', { name: `Open “${FLAGSHIP}”` }).click()
  await page.getByText('The spec is valid.').waitFor()
  const labels = await page
    .locator('[data-scheduler]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-scheduler')!))
  console.log(
    `flagship: ${labels.length} schedulers (${labels.join(', ')}), ${host.lab['opts'].parallel ?? 'all'} cores`,
  )

  const first: number[] = []
  const full: number[] = []
  const longest: number[] = []
  for (let i = 0; i < runs; i++) {
    await page.evaluate(() => {
      const w = globalThis as unknown as { __longest: number }
      w.__longest = 0
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) w.__longest = Math.max(w.__longest, e.duration)
      }).observe({ type: 'longtask' as never })
    })
    const t0 = Date.now()
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await page.locator('tbody tr td.num').first().waitFor({ timeout: 300_000 })
    first.push((Date.now() - t0) / 1000)
    for (const l of labels)
      await page.locator(`tr[data-label="${l}"] td.num`).first().waitFor({ timeout: 300_000 })
    full.push((Date.now() - t0) / 1000)
    await page.getByText(/Done in/).waitFor()
    longest.push(await page.evaluate(() => (globalThis as unknown as { __longest: number }).__longest))
    await page.getByRole('button', { name: 'Setup' }).click()
  }
  console.log(line('Run → first row of the flagship table', first, 's'))
  console.log(line('Run → complete flagship table', full, 's'))
  console.log(line('longest main-thread task during the run', longest, 'ms'))

  const chart: number[] = []
  for (let i = 0; i < Math.max(runs, 5); i++) {
    await page.goto(`${host.server.origin}#/bench`)
    const out = page.getByTestId('bench-ms')
    await out.locator('xpath=self::*[@data-ms!=""]').waitFor()
    chart.push(Number(await out.getAttribute('data-ms')))
  }
  console.log(line('chart: 8 series × 10 000 points, first draw', chart, 'ms'))
} finally {
  await browser.close()
  await host.close()
}
