import type { PhaseResult } from '../host/program'
import { BONNIE_PHASES } from './bonnie'

/** bonnie++ prints "+++++" for a phase too short to time reliably (under half a second). */
const MIN_SECONDS = 0.5

interface Cell {
  rate: string
  cpu: string
}

function cell(p: PhaseResult | undefined, perSecond: 'K' | 'ops'): Cell {
  if (!p || p.seconds < MIN_SECONDS) return { rate: '+++++', cpu: '+++' }
  const rate =
    perSecond === 'K' ? Math.round(p.bytes / 1024 / p.seconds).toString() : (p.ops / p.seconds).toFixed(1)
  const cpu = Math.min(100, Math.round((100 * p.cpuSeconds) / p.seconds)).toString()
  return { rate, cpu }
}

/** The cells of one bonnie++ run, in its column order. */
function cells(phases: PhaseResult[]): Cell[] {
  const by = (n: string): PhaseResult | undefined => phases.find((p) => p.name === n)
  return BONNIE_PHASES.map((n) => {
    const p = by(n)
    if (n === 'seeks') return cell(p, 'ops')
    if (n.includes('create') || n.includes('stat') || n.includes('del')) {
      const c = cell(p, 'ops')
      return { rate: c.rate === '+++++' ? c.rate : Math.round(Number(c.rate)).toString(), cpu: c.cpu }
    }
    return cell(p, 'K')
  })
}

/** The CSV line bonnie++ 1.03 prints (and bon_csv2html reads). */
export function bonnieCsv(machine: string, sizeBytes: number, files: number, phases: PhaseResult[]): string {
  const c = cells(phases)
  const f = (i: number): string => `${c[i].rate},${c[i].cpu}`
  const size = `${Math.round(sizeBytes / 2 ** 20)}M`
  return [
    machine,
    size,
    f(0),
    f(1),
    f(2),
    f(3),
    f(4),
    f(5),
    files,
    f(6),
    f(7),
    f(8),
    f(9),
    f(10),
    f(11),
  ].join(',')
}

/** The table bonnie++ 1.03 prints. */
export function bonnieTable(
  machine: string,
  sizeBytes: number,
  files: number,
  phases: PhaseResult[],
): string {
  const c = cells(phases)
  const size = `${Math.round(sizeBytes / 2 ** 20)}M`
  const pair = (i: number, w = 5): string => `${c[i].rate.padStart(w)} ${c[i].cpu.padStart(3)}`
  return [
    'Version 1.03       ------Sequential Output------ --Sequential Input- --Random-',
    '                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--',
    'Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP',
    `${machine.slice(0, 14).padEnd(14)}${size.padStart(5)} ${pair(0)} ${pair(1)} ${pair(2)} ${pair(3)} ${pair(4)} ${pair(5)}`,
    '                    ------Sequential Create------ --------Random Create--------',
    '                    -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--',
    '              files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP',
    `${String(files).padStart(19)} ${pair(6)} ${pair(7)} ${pair(8)} ${pair(9)} ${pair(10)} ${pair(11)}`,
  ].join('\n')
}
