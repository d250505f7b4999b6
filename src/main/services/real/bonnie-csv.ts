/**
 * bonnie++'s CSV line (`-q` prints it on stdout). Three layouts: 1.03 starts with the machine
 * name; 1.9x starts with the format and bonnie++ versions; from format 1.98, fields 7–8 are
 * `seeks` and `seek_proc_count`, shifting every later field. Measurements are (rate, %CPU) pairs;
 * `+++++` means "too fast to measure" and is not a number.
 */
export type BonniePhase = 'putc' | 'put_block' | 'rewrite' | 'getc' | 'get_block' | 'seeks'

export const BONNIE_PHASES: readonly BonniePhase[] = [
  'putc',
  'put_block',
  'rewrite',
  'getc',
  'get_block',
  'seeks',
]

export interface BonnieMeasure {
  /** K/s for the char/block phases, seeks/s for seeks; null when not run or too fast to measure. */
  rate: number | null
  /** `+++++`: finished too quickly for bonnie++ to time it. */
  tooFast: boolean
  cpuPercent: number | null
  /** Longest operation (1.9x only), ms. */
  maxLatencyMs: number | null
}

export interface BonnieResult {
  /** `1.03`, or the 1.9x format version (`1.97`, `1.98`). */
  format: string
  bonnieVersion: string | null
  machine: string
  /** The file size field as printed (`64M`, `2G`, or MiB in 1.03). */
  size: string
  sizeBytes: number
  /** Seeks per seeker process (1.98+) — bonnie++ runs `seekProcesses` of them. */
  seeks: number | null
  seekProcesses: number | null
  phases: Record<BonniePhase, BonnieMeasure>
}

const SIZE_UNITS: Record<string, number> = { '': 2 ** 20, K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40 }

const sizeBytes = (s: string): number => {
  const m = /^(\d+(?:\.\d+)?)([KMGT]?)/i.exec(s.trim())
  return m ? Math.round(Number(m[1]) * (SIZE_UNITS[m[2].toUpperCase()] ?? 2 ** 20)) : NaN
}

const latency = (s: string | undefined): number | null => {
  const m = /^(\d+(?:\.\d+)?)(us|ms|s)$/.exec((s ?? '').trim())
  if (!m) return null
  return m[2] === 'us' ? Number(m[1]) / 1000 : m[2] === 's' ? Number(m[1]) * 1000 : Number(m[1])
}

/** Parse the last bonnie++ CSV line of `text`; errors name the field. */
export function parseBonnieCsv(text: string, source = 'bonnie++ output'): BonnieResult {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.split(',').length >= 14)
  const line = lines[lines.length - 1]
  if (!line) throw new Error(`${source}: no bonnie++ CSV line (was bonnie++ run with -q, and did it finish?)`)
  const f = line.split(',')
  const modern = /^1\.9\d*$/.test(f[0])
  const format = modern ? f[0] : '1.03'
  // index of putc's rate: 1.03: name,size,putc…; 1.9x: format,version,name,concurrency,seed,size,chunk,putc…
  const shift = modern ? (Number(f[0]) >= 1.98 ? 9 : 7) : 2
  const latencyAt = modern ? shift + 29 : -1
  const measure = (k: number): BonnieMeasure => {
    const rate = f[shift + 2 * k] ?? ''
    const cpu = f[shift + 2 * k + 1] ?? ''
    const tooFast = /^\++$/.test(rate)
    const r = tooFast || rate === '' ? null : Number(rate)
    if (r !== null && !Number.isFinite(r))
      throw new Error(
        `${source}: ${BONNIE_PHASES[k]} rate (field ${shift + 2 * k + 1}): expected a number or +++++, got "${rate}"`,
      )
    return {
      rate: r,
      tooFast,
      cpuPercent: /^\d+(\.\d+)?$/.test(cpu) ? Number(cpu) : null,
      maxLatencyMs: latencyAt >= 0 ? latency(f[latencyAt + k]) : null,
    }
  }
  const phases = Object.fromEntries(BONNIE_PHASES.map((p, k) => [p, measure(k)])) as Record<
    BonniePhase,
    BonnieMeasure
  >
  const size = modern ? f[5] : f[1]
  return {
    format,
    bonnieVersion: modern ? f[1] : null,
    machine: modern ? f[2] : f[0],
    size,
    sizeBytes: sizeBytes(size),
    seeks: modern && Number(f[0]) >= 1.98 ? Number(f[7]) || null : null,
    seekProcesses: modern && Number(f[0]) >= 1.98 ? Number(f[8]) || null : null,
    phases,
  }
}
