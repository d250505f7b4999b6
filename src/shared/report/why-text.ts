// The "why" of a comparison as plain text: for the process a reader cares about, where its time
// went under each scheduler (CPU, runnable, blocked on reads …), its requests' stages as btt
// prints them (Q2G, I2D, D2C, Q2C means), and the explanation of best against worst. Used by
// `iosched-lab run`'s table and the mailing-list text report.
import { explain } from '../experiment/explain'
import { groupOf, groupProcesses } from '../experiment/process-groups'
import type { RunResult } from '../experiment/result'
import { LatencyHistogram } from '../metrics/histogram'
import type { StageName, TimePart } from '../metrics/why'
import { TIME_PARTS } from '../metrics/why'
import { fixedWidth, fmt } from './format'
import { wrap } from '../util/wrap'

const TIME_HEADS: Record<TimePart, string> = {
  cpu: 'cpu',
  runnable: 'runnable',
  read: 'reads',
  write: 'writes',
  throttled: 'throttled',
  sync: 'sync',
  fault: 'faults',
  think: 'think',
  other: 'other',
}

/**
 * The why of `runs` for `process` (default: the first process), `width` columns wide; empty when
 * no run has a time account or stages for it.
 */
export function whyText(runs: readonly RunResult[], process?: string, width = 76): string {
  const folded = runs.map(groupProcesses)
  const name = process !== undefined ? groupOf(process) : folded[0]?.processes[0]?.name
  if (name === undefined) return ''
  const firsts = new Map<string, RunResult>()
  for (const r of folded)
    if (!firsts.has(r.label) && r.processes.some((p) => p.name === name)) firsts.set(r.label, r)
  const out: string[] = []
  const timed = [...firsts.values()].filter((r) => r.processes.find((p) => p.name === name)?.time)
  if (timed.length > 0) {
    const used = TIME_PARTS.filter((k) =>
      timed.some((r) => (r.processes.find((p) => p.name === name)!.time![k] ?? 0) > 0),
    )
    const rows = timed.map((r) => {
      const p = r.processes.find((x) => x.name === name)!
      return [r.label, fmt(p.seconds), ...used.map((k) => fmt(p.time![k]))]
    })
    out.push(
      `${wrap(`where the ${name}'s time went, s (first run of each):`, width)}\n${fixedWidth(['scheduler', 'total', ...used.map((k) => TIME_HEADS[k])], rows, 1)}`,
    )
  }
  const staged = [...firsts.values()].filter((r) => r.why?.processes.some((s) => s.process === name))
  if (staged.length > 0) {
    const stages: StageName[] = ['q2g', 'i2d', 'd2c', 'q2c']
    const rows = staged.map((r) => {
      const s = r.why!.processes.find((x) => x.process === name)!
      const mean = (k: StageName): string => {
        const h = LatencyHistogram.fromJSON(s.stages[k])
        return h.count > 0 ? fmt(h.mean / 1e6) : '-'
      }
      return [r.label, String(s.requests), ...stages.map(mean), String(s.batches)]
    })
    out.push(
      `${wrap(`the ${name}'s requests, mean ms per stage (btt's Q2G slot, I2D scheduler, D2C device):`, width)}\n` +
        fixedWidth(['scheduler', 'requests', 'Q2G', 'I2D', 'D2C', 'Q2C', 'runs'], rows, 1),
    )
  }
  const e = explain(runs, name)
  if (e) out.push(`why: ${wrap(e.text, width - 5).replace(/\n/g, '\n     ')}`)
  return out.join('\n\n')
}
