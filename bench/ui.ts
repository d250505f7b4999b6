// npm run bench:ui [-- --runs N]
// The lab's front end, measured in Chromium through the browser host (a fresh production build):
//  1. pressing Run on the flagship (examples/streaming-read-under-write-2003.json) until the
//     table's first row and until the complete table, and the longest main-thread task meanwhile
//     (does the page stay responsive while results stream in?);
//  2. the first draw of a chart of 8 series × 10 000 points with LTTB decimation (#/bench).
// Figures, not assertions; best and median of N runs (default 3); BENCH_VERBOSE=1 prints each run.
// The host warms its simulation children up at start, as the app and `serve` do; Run is pressed
// as soon as the spec is valid, so the first run may still meet children (and a page) less warm
// than the later ones: BENCH_VERBOSE=1 shows it apart.
import { chromiumAvailable, launchChromium } from '../test/renderer/browser'
import { startLabHost } from '../test/renderer/lab-host'

const runsArg = process.argv.indexOf('--runs')
const runs = runsArg > 0 ? Math.max(1, Number(process.argv[runsArg + 1]) || 1) : 3
// The gallery shows the flagship as its first variant (examples/ holds the same spec).
const FLAGSHIP = 'gallery/streaming-read-under-write-2003/main'

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
  const inPage: number[] = []
  const longest: number[] = []
  for (let i = 0; i < runs; i++) {
    await page.evaluate((n) => {
      const w = globalThis as unknown as { __longest: number; __click: number; __table: number }
      w.__longest = 0
      w.__click = 0
      w.__table = 0
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) w.__longest = Math.max(w.__longest, e.duration)
      }).observe({ type: 'longtask' as never })
      // in the page itself: from the click to the moment every row of the table has its figures
      // (the waits below add Playwright's round trips to the page on top of that)
      // the page's DOM, typed here by hand (this file is type-checked without the DOM library)
      type Row = { querySelector(s: string): unknown }
      type Observer = new (f: () => void) => { observe(n: unknown, o: object): void; disconnect(): void }
      const page = globalThis as unknown as {
        document: {
          body: unknown
          addEventListener(type: string, f: () => void, o: object): void
          querySelectorAll(s: string): ArrayLike<Row>
        }
        MutationObserver: Observer
      }
      const doc = page.document
      doc.addEventListener('click', () => (w.__click = performance.now()), { capture: true, once: true })
      // (no named functions in here: tsx would wrap them in a helper the page does not have)
      const watch = new page.MutationObserver(() => {
        const r = Array.from(doc.querySelectorAll('table[aria-label="Comparison"] tbody tr'))
        if (r.length === n && r.every((tr) => tr.querySelector('td.num'))) {
          w.__table = performance.now()
          watch.disconnect()
        }
      })
      watch.observe(doc.body, { subtree: true, childList: true })
    }, labels.length)
    const t0 = Date.now()
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await page.locator('tbody tr td.num').first().waitFor({ timeout: 300_000 })
    first.push((Date.now() - t0) / 1000)
    for (const l of labels)
      await page.locator(`tr[data-label="${l}"] td.num`).first().waitFor({ timeout: 300_000 })
    full.push((Date.now() - t0) / 1000)
    await page.getByText(/Done in/).waitFor()
    // the two numbers, not the window (which does not serialize)
    const w = await page.evaluate(() => {
      const g = globalThis as unknown as { __click: number; __table: number }
      return { click: g.__click, table: g.__table }
    })
    inPage.push((w.table - w.click) / 1000)
    longest.push(await page.evaluate(() => (globalThis as unknown as { __longest: number }).__longest))
    if (process.env.BENCH_VERBOSE)
      console.log(
        `  run ${i + 1}: ${full.at(-1)!.toFixed(2)} s, in the page ${inPage.at(-1)!.toFixed(2)} s (${await page.locator('.progress .summary').textContent()}), longest task ${longest.at(-1)!.toFixed(0)} ms`,
      )
    await page.getByRole('button', { name: 'Setup' }).click()
  }
  console.log(line('Run → first row of the flagship table', first, 's'))
  console.log(line('Run → complete flagship table', full, 's'))
  console.log(line('Run → complete table, timed in the page', inPage, 's'))
  console.log(line('longest main-thread task during the run', longest, 'ms'))

  const chart: number[] = []
  for (let i = 0; i < Math.max(runs, 5); i++) {
    // another view first: going to the same address again would not mount the bench view anew
    // (and would read the first draw's figure again)
    await page.goto(`${host.server.origin}#/start`)
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
