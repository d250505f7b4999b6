// Under the table of a real run: what each real row ran on in the kernel — the scheduler switched
// to (`none` for the lab's noop, `mq-deadline` for deadline …) and the tunables written to its
// queue/iosched/ — which `run --json` has per run (real.kernelScheduler, real.tunablesWritten).
import type { ExperimentResult } from '../shared/experiment/compare'
import type { RealRunInfo } from '../main/services/real/real-result'
import { renderTable } from './table'

type MaybeReal = { label: string; source: string; real?: Partial<RealRunInfo> }

/** `read_expire=100, fifo_batch=16`, or `kernel defaults` when nothing was written. */
export const tunablesText = (t: Record<string, string> | undefined): string =>
  Object.entries(t ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(', ') || 'kernel defaults'

/** The kernel scheduler a run ran under, with what sysfs showed when that was something else. */
const kernelText = (r: Partial<RealRunInfo>): string =>
  r.observedScheduler && r.observedScheduler !== r.kernelScheduler
    ? `${r.kernelScheduler} (sysfs showed ${r.observedScheduler})`
    : (r.kernelScheduler ?? '?')

/**
 * One line per real row of the table: its kernel scheduler and tunables (repetitions that differ
 * are joined with ` | `); '' when no row was measured by the lab on a real device (simulated
 * only, imported, or on fio servers whose scheduler the lab does not set).
 */
export function kernelRows(r: ExperimentResult): string {
  const rows: string[][] = []
  for (const s of r.summary) {
    if (s.source !== 'real') continue
    const runs = (r.runs as MaybeReal[]).filter(
      (x) => x.label === s.label && x.source === 'real' && x.real?.kernelScheduler !== undefined,
    )
    if (runs.length === 0) continue
    const distinct = (f: (x: Partial<RealRunInfo>) => string): string =>
      [...new Set(runs.map((x) => f(x.real!)))].join(' | ')
    rows.push([`${s.label} (real)`, distinct(kernelText), distinct((x) => tunablesText(x.tunablesWritten))])
  }
  if (rows.length === 0) return ''
  return `\n\n${renderTable(['real row', 'kernel scheduler', 'tunables written (queue/iosched/)'], rows, ['l', 'l', 'l'])}`
}
