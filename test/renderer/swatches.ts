// Colours as the page shows them, for the end-to-end tests that check a scheduler's swatch against
// the palette (the tests' types have no DOM).
import type { Locator } from 'playwright-core'

/** `#rrggbb` as the browser's computed style writes it. */
export const rgb = (hex: string): string => {
  const n = parseInt(hex.slice(1), 16)
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`
}

/** Each element's text and the computed background of the `.swatch` inside it. */
export const swatchColours = (cells: Locator): Promise<[string, string][]> =>
  cells.evaluateAll((els) =>
    els.map((e) => {
      const el = e as unknown as { textContent: string | null; querySelector(s: string): unknown }
      const style = (
        globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }
      ).getComputedStyle(el.querySelector('.swatch'))
      return [(el.textContent ?? '').trim(), style.backgroundColor] as [string, string]
    }),
  )
