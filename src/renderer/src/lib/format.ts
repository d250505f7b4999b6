// Numbers as people read them: three significant figures, thousands separated, units spaced.

export function num(v: number | undefined | null, digits = 3): string {
  if (v === undefined || v === null || Number.isNaN(v)) return '–'
  if (!Number.isFinite(v)) return v > 0 ? '∞' : '−∞'
  if (v === 0) return '0'
  const a = Math.abs(v)
  if (a >= 10 ** digits) return Math.round(v).toLocaleString('en-US')
  if (a < 0.001) return v.toExponential(1)
  return Number(v.toPrecision(digits)).toString()
}

export function withUnit(v: number | undefined, unit: string): string {
  return unit ? `${num(v)} ${unit}` : num(v)
}

export function seconds(s: number | null | undefined): string {
  if (s === null || s === undefined || !Number.isFinite(s)) return ''
  if (s < 60) return `${Math.ceil(s)} s`
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`
}

export function bytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let i = 0
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024
    i++
  }
  return `${num(n)} ${units[i]}`
}

export function when(iso: string): string {
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString()
}
