// Waits the end-to-end tests share: the app draws its charts in idle time, so a test waits for an
// idle moment, or for every chart to have redrawn on a theme's colour, before it reads or
// photographs them.
import type { Page } from 'playwright-core'

/** Until the page has an idle moment of 30 ms (at most 20 tries of 200 ms). */
export function idle(page: Page): Promise<void> {
  return page.evaluate(async () => {
    // (no named functions in here: the test's transform would wrap them in a helper the page lacks)
    const g = globalThis as unknown as {
      requestIdleCallback(f: (d: { timeRemaining(): number }) => void, o: { timeout: number }): void
    }
    for (let i = 0; i < 20; i++) {
      const left = await new Promise<number>((r) =>
        g.requestIdleCallback((d) => r(d.timeRemaining()), { timeout: 200 }),
      )
      if (left > 30) return
    }
  })
}

/** Until every chart's canvas shows `rgb` in its corner: redrawn on the theme's background. */
export async function chartsIn(page: Page, rgb: readonly number[]): Promise<void> {
  await page.waitForFunction(
    (want) => {
      type Canvas = {
        getContext(t: '2d'): {
          getImageData(x: number, y: number, w: number, h: number): { data: number[] }
        }
      }
      const d = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<Canvas> } })
        .document
      return Array.from(d.querySelectorAll('[data-chart] canvas')).every((c) => {
        const px = c.getContext('2d').getImageData(1, 1, 1, 1).data
        return px[0] === want[0] && px[1] === want[1] && px[2] === want[2]
      })
    },
    [...rgb],
    { timeout: 15_000 },
  )
}
