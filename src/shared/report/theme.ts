// The app's page colours (src/renderer/src/styles.css, light and dark), for the documents it
// writes: the HTML report looks like the app, and follows the reader's light or dark setting.
// A test keeps these and styles.css the same.

export interface ThemeColours {
  bg: string
  panel: string
  text: string
  muted: string
  border: string
  accent: string
  chip: string
  best: string
  'best-text': string
  warn: string
}

export const LIGHT: Readonly<ThemeColours> = {
  bg: '#f4f5f3',
  panel: '#ffffff',
  text: '#1d1f23',
  muted: '#60656f',
  border: '#dcdfe3',
  accent: '#2f6fb0',
  chip: '#eef2f7',
  best: '#e3f4e8',
  'best-text': '#12622f',
  warn: '#8a5a00',
}

export const DARK: Readonly<ThemeColours> = {
  bg: '#15171a',
  panel: '#1f2227',
  text: '#e3e5e8',
  muted: '#9aa0aa',
  border: '#343840',
  accent: '#7ab0e6',
  chip: '#2a2f37',
  best: '#183a25',
  'best-text': '#8fdca8',
  warn: '#e0b050',
}

/** The colours as CSS custom properties (`--bg: #f4f5f3; …`). */
export const cssVariables = (t: ThemeColours): string =>
  Object.entries(t)
    .map(([k, v]) => `--${k}: ${v};`)
    .join(' ')
