// One colour per scheduler, the same in the app's table, every chart, the library and the HTML
// report: a scheduler's colour is a function of its name only, never of a row's place, so
// "deadline" is orange whether it is the first of two rows or the fifth of nine. A label variant
// of a scheduler ("bfq (slice_idle=0)", "deadline-fb4", "deadline (real)") gets a shade of its
// scheduler's colour picked by the label, again independent of the other rows.

/**
 * The schedulers the lab models, each a hue of its own; kin (noop / none, deadline / mq-deadline,
 * cfq / bfq) are near but distinct. Okabe–Ito's colour-blind-safe colours for the schedulers most
 * often compared, then a few more. All readable on white and on the dark theme's #1f2227.
 */
export const SCHEDULER_COLOURS: Readonly<Record<string, string>> = {
  noop: '#0072B2', // blue
  none: '#3F8FD8', // lighter blue: blk-mq's own no-op
  deadline: '#E69F00', // orange
  'mq-deadline': '#D55E00', // vermillion
  anticipatory: '#CC79A7', // reddish purple
  cfq: '#009E73', // bluish green
  bfq: '#8A5CC2', // violet
  kyber: '#E7298A', // magenta
  row: '#A6761D', // ochre
  fcfs: '#7F7F7F', // grey
  sstf: '#66A61E', // leaf green
  scan: '#2F6F8F', // slate
  look: '#B5553C', // brick
  'c-look': '#17A2B8', // teal
}

/** Kernel aliases of the names above. */
const ALIASES: Readonly<Record<string, string>> = { as: 'anticipatory' }

/** For a name the lab does not model (an imported run's "unknown" …): one of these, by its name. */
const OTHER = ['#6C7A89', '#9C6644', '#5E8C31', '#B0417A', '#3C6E71', '#8E7CC3', '#C17C2B', '#4F6D9A']

/** A scheduler's canonical name, or null when it is not one the lab models. */
export function canonicalScheduler(name: string): string | null {
  const n = name.trim().toLowerCase()
  if (n in SCHEDULER_COLOURS) return n
  return ALIASES[n] ?? null
}

/**
 * The scheduler a label names when nothing else says: the longest scheduler name or alias the
 * label starts with, followed by nothing or by a character that cannot continue a name
 * ("bfq (slice_idle=0)", "deadline-fb4", "cfq_v1" → bfq, deadline, cfq). Null when none does.
 */
export function schedulerOfLabel(label: string): string | null {
  const l = label.trim().toLowerCase()
  let best: string | null = null
  for (const name of [...Object.keys(SCHEDULER_COLOURS), ...Object.keys(ALIASES)]) {
    if (!l.startsWith(name)) continue
    const next = l.charAt(name.length)
    if (next !== '' && /[a-z]/.test(next)) continue // "nonesuch" is not "none"
    if (best === null || name.length > best.length) best = name
  }
  return best === null ? null : canonicalScheduler(best)
}

/** FNV-1a, 32 bits: a small hash that is the same everywhere. */
function hash(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** A scheduler's own colour: the table's for the names it models, else one picked by the name. */
export function baseColour(scheduler: string): string {
  const c = canonicalScheduler(scheduler)
  if (c) return SCHEDULER_COLOURS[c]
  return OTHER[hash(scheduler.trim().toLowerCase()) % OTHER.length]
}

/**
 * The shades a variant may take: a share of the way towards the lightest or the darkest readable
 * colour (so a light or a dark colour gets distinct shades too). Only the lightness moves: a turn
 * of the hue would soon reach a kin's colour (deadline's orange, mq-deadline's vermillion). None
 * is the colour itself. Two variants of one scheduler may draw the same shade (one chance in
 * four): the label alone decides, so that a colour never depends on the other rows.
 */
const SHADES: readonly number[] = [-0.45, 0.45, -0.8, 0.8]

/**
 * The colour of a row, series or run set: its scheduler's colour when the label is the
 * scheduler's own name (or there is no label), else a shade of it chosen by the label alone.
 * `scheduler` defaults to the one the label names (see schedulerOfLabel); a label naming none is
 * coloured as a scheduler of that name.
 */
export function schedulerColour(label: string, scheduler?: string): string {
  const sched = scheduler ?? schedulerOfLabel(label) ?? label
  const base = baseColour(sched)
  const own = canonicalScheduler(sched) ?? sched.trim().toLowerCase()
  const l = label.trim().toLowerCase()
  if (l === '' || l === own || canonicalScheduler(l) === own) return base
  return shadeOf(base, SHADES[hash(l) % SHADES.length])
}

/** Lightness (HSL) of the darkest and lightest shades: lines still show on white and on #1f2227. */
const DARKEST = 0.2
const LIGHTEST = 0.78

/**
 * `#rrggbb` with its HSL lightness moved the share `dl` of the way to the lightest shade (dl > 0)
 * or the darkest (dl < 0), and its hue turned by `dh` degrees. A lighter shade's saturation is
 * kept to 0.72.
 */
export function shadeOf(hex: string, dl: number, dh = 0): string {
  const [h, s, l] = toHsl(hex)
  const to = dl > 0 ? Math.max(l, LIGHTEST) : Math.min(l, DARKEST)
  // lighter at full saturation turns neon on white: a lighter shade is a little greyer too
  const sat = dl > 0 ? Math.min(s, 0.72) : s
  return fromHsl((h + dh + 360) % 360, sat, l + Math.abs(dl) * (to - l))
}

/** `#rrggbb` with an alpha, as rgba(). */
export function withAlpha(hex: string, alpha: number): string {
  const n = parseInt(hex.slice(1), 16)
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`
}

function toHsl(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16)
  const r = ((n >> 16) & 255) / 255
  const g = ((n >> 8) & 255) / 255
  const b = (n & 255) / 255
  const max = Math.max(r, g, b)
  const min = Math.min(r, g, b)
  const l = (max + min) / 2
  if (max === min) return [0, 0, l]
  const d = max - min
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min)
  const h = max === r ? (g - b) / d + (g < b ? 6 : 0) : max === g ? (b - r) / d + 2 : (r - g) / d + 4
  return [h * 60, s, l]
}

function fromHsl(h: number, s: number, l: number): string {
  const k = (n: number): number => (n + h / 30) % 12
  const a = s * Math.min(l, 1 - l)
  const f = (n: number): number => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)))
  const hex = (x: number): string =>
    Math.round(x * 255)
      .toString(16)
      .padStart(2, '0')
  return `#${hex(f(0))}${hex(f(8))}${hex(f(4))}`.toUpperCase()
}

/**
 * The colour of each part of a process's time (metrics/why.ts TIME_PARTS) in the stacked bars of
 * the app's Why panel and the HTML report: Tableau 10's hues, distinct from one another, readable
 * on white and on #1f2227. Blocked on reads and writes are the warm ones people look for first;
 * time on or waiting for a CPU the blues; think and other greys.
 */
export const TIME_PART_COLOURS: Readonly<Record<string, string>> = {
  cpu: '#4E79A7',
  runnable: '#8CB7E0',
  read: '#F28E2B',
  write: '#E15759',
  throttled: '#B07AA1',
  sync: '#59A14F',
  fault: '#EDC948',
  think: '#9C9C9C',
  other: '#BAB0AC',
}
