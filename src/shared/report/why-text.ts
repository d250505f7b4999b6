// The "why" of a comparison as plain text: for the process a reader cares about, where its time
// went under each scheduler (CPU, runnable, blocked on reads …), its requests' stages as btt
// prints them (Q2G, I2D, D2C, Q2C means), and the explanation of best against worst with its
// mechanism named. Used by `iosched-lab run`'s table and the mailing-list text report.
import { explain, rowName } from '../experiment/explain'
import { groupOf, groupProcesses } from '../experiment/process-groups'
import type { RunResult } from '../experiment/result'
import { runKind } from '../experiment/result'
import { LatencyHistogram } from '../metrics/histogram'
import type { StageName } from '../metrics/why'
import { TIME_PARTS } from '../metrics/why'
import { MECHANISM_NAME, stageSourceText, TIME_PART_NAME } from './why-figures'
import { fixedWidth, fmt } from './format'
import { wrap } from '../util/wrap'

/**
 * The why of `runs` for `process` (default: the first process), `width` columns wide; empty when
 * no run has a time account or stages for it.
 */
export function whyText(runs: readonly RunResult[], process?: string, width = 76): string {
  const folded = runs.map(groupProcesses)
  const name = process !== undefined ? groupOf(process) : folded[0]?.processes[0]?.name
  if (name === undefined) return ''
  // simulated, real and imported runs each explained among themselves, side by side
  const kinds = [...new Set(folded.map(runKind))]
  return kinds
    .map((k) =>
      ofKind(
        folded.filter((r) => runKind(r) === k),
        name,
        width,
        kinds.length > 1 ? k : '',
      ),
    )
    .filter((t) => t.length > 0)
    .join('\n\n')
}

function ofKind(runs: readonly RunResult[], name: string, width: number, kind: string): string {
  const firsts = new Map<string, RunResult>()
  for (const r of runs)
    if (!firsts.has(rowName(r)) && r.processes.some((p) => p.name === name)) firsts.set(rowName(r), r)
  const of = kind ? ` (${kind} runs)` : ''
  const also = kind ? `; ${kind} runs` : ''
  const out: string[] = []
  const timed = [...firsts.values()].filter((r) => r.processes.find((p) => p.name === name)?.time)
  if (timed.length > 0) {
    const used = TIME_PARTS.filter((k) =>
      timed.some((r) => (r.processes.find((p) => p.name === name)!.time![k] ?? 0) > 0),
    )
    const rows = timed.map((r) => {
      const p = r.processes.find((x) => x.name === name)!
      return [rowName(r), fmt(p.seconds), ...used.map((k) => fmt(p.time![k]))]
    })
    out.push(
      `${wrap(`where the ${name}'s time went, s (first run of each${also}):`, width)}\n` +
        fixedWidth(['scheduler', 'total', ...used.map((k) => TIME_PART_NAME[k])], rows, 1),
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
      return [rowName(r), String(s.requests), ...stages.map(mean), String(s.batches)]
    })
    const from = stageSourceText(staged, name)
    out.push(
      `${wrap(`the ${name}'s requests, mean ms per stage (btt's Q2G slot, I2D scheduler, D2C device${also}${from ? `, ${from}` : ''}):`, width)}\n` +
        fixedWidth(['scheduler', 'requests', 'Q2G', 'I2D', 'D2C', 'Q2C', 'runs'], rows, 1),
    )
  }
  const missing = [...new Set([...firsts.values()].flatMap((r) => r.why?.missing ?? []))]
  if (missing.length > 0)
    out.push(`trace notes${of}:\n${wrap(missing.join('; '), width - 2).replace(/^/gm, '  ')}`)
  const e = explain(runs, name)
  // the mechanism named beside the sentence, as the app's panel and the HTML report name it
  if (e && (timed.length > 0 || staged.length > 0))
    out.push(
      `why (${MECHANISM_NAME[e.mechanism]}${kind ? `; ${kind} runs` : ''}):\n${wrap(e.text, width - 2).replace(/^/gm, '  ')}`,
    )
  return out.join('\n\n')
}
