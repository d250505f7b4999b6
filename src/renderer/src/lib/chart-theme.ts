// The charts' colours per theme and their legends' keys: plain data, no chart.js or DOM, so that
// the tests can read what the charts are drawn with.

export interface ChartColours {
  text: string
  muted: string
  grid: string
  background: string
  /**
   * The theme's grey for marks behind the coloured ones (a sector picture's writes): opaque, so
   * thousands of overlapping marks stay this grey instead of piling up into the scheduler's colour
   * as a translucent shade does; 2.4:1 on white, 3.2:1 on the dark panel.
   */
  behind: string
}

export function chartColours(dark: boolean): ChartColours {
  return dark
    ? {
        text: '#e3e5e8',
        muted: '#9aa0aa',
        grid: 'rgba(255,255,255,0.09)',
        background: '#1f2227',
        behind: '#6b717b',
      }
    : {
        text: '#1d1f23',
        muted: '#60656f',
        grid: 'rgba(0,0,0,0.08)',
        background: '#ffffff',
        behind: '#a3a8b0',
      }
}

/**
 * A legend's key for a chart type: a short thick line for lines and points, a square swatch for
 * bars (a line beside a bar read as a line series that is not there).
 */
export function legendBox(type: string): { boxWidth: number; boxHeight: number } {
  return type === 'bar' ? { boxWidth: 10, boxHeight: 10 } : { boxWidth: 14, boxHeight: 2 }
}
