import { wrap } from '../util/wrap'
import { isNoisy, orderedWithMean } from '../metrics/compare-runs'
import { secondsOf } from './csv'
import { IDENTICAL_REPETITIONS, identicalRepetitions } from '../experiment/stability'
import { fixedWidth, fmt, fmtCi } from './format'
import { sourceRows, tunableLines, workloadLines } from './how-run'
import type { ReportInput } from './input'
import { systemRowsOf } from '../experiment/real-system'
import { whyText } from './why-text'
import { shownOf, whyProcessOf } from './why-figures'

/**
 * A plain-text summary to paste into a mailing-list post, the way the 2003 scheduler comparisons
 * were shared: fixed-width, under 80 columns, one table per process with each scheduler's key
 * figures — the time (with repetitions: every run's time in order, then the average, as kernel
 * posts list them), MB/s, IOPS and latency — and the device's read and write rates and IOPS. It
 * says where each scheduler's runs came from (simulated, real, imported) and ends with the
 * workload and the tunables, so a reader can repeat the experiment. Before those, the why of the
 * experiment's stop process: where its time went, its requests' stages and the explanation.
 */
export function mailingListText(input: ReportInput): string {
  const out: string[] = [`${input.name}\n${'='.repeat(Math.min(76, input.name.length))}`]
  if (input.description) out.push(wrap(input.description, 76))
  const env = input.environment.filter(([k]) => !k.startsWith('runs'))
  if (env.length > 0) out.push(env.map(([k, v]) => wrap(`${k}: ${v}`, 76)).join('\n'))
  if (input.summary.length > 0)
    out.push(`runs:\n${fixedWidth(['scheduler', 'source'], sourceRows(input), 2)}`)
  const system = systemRowsOf(input.runs)
  if (system.length > 0)
    out.push(`system of the real runs:\n${system.map(([k, v]) => indent(wrap(`${k}: ${v}`, 74))).join('\n')}`)
  const repeated = input.summary.some((s) => s.repetitions > 1)
  let noisy = false
  const names: string[] = []
  for (const s of input.summary) for (const p of s.processes) if (!names.includes(p.name)) names.push(p.name)
  for (const name of names) {
    const rows: string[][] = []
    const bytes = new Set<number>()
    for (const s of input.summary) {
      const p = s.processes.find((x) => x.name === name)
      if (!p) continue
      bytes.add(Math.round(p.bytes.mean))
      const seconds = secondsOf(input.runs, s.label, name)
      const flag = isNoisy(seconds) ? ' *' : ''
      if (flag) noisy = true
      const o = orderedWithMean(seconds)
      const row = [s.source === 'real' ? `${s.label} (real)` : s.label]
      if (repeated) row.push(o.ordered.map((x) => fmt(x)).join(' ') + flag, fmt(o.mean))
      else row.push(fmt(o.mean))
      row.push(fmtCi(p.MBps.mean, p.MBps.ci95, s.repetitions), fmt(p.IOPS.mean))
      if (!repeated) row.push(fmt(p.latencyMs.p50.mean), fmt(p.latencyMs.p95.mean))
      row.push(fmt(p.latencyMs.p99.mean), fmt(p.latencyMs.max.mean))
      rows.push(row)
    }
    const header = ['scheduler', ...(repeated ? ['seconds, runs in order', 'average'] : ['seconds'])]
    header.push('MB/s', 'IOPS', ...(repeated ? [] : ['p50 ms', 'p95 ms']), 'p99 ms', 'max ms')
    const size = bytes.size === 1 ? ` (${fmt([...bytes][0] / 1e6)} MB each)` : ''
    out.push(`${name}${size}:\n${fixedWidth(header, rows)}`)
  }
  if (input.summary.length > 0)
    out.push(
      'device:\n' +
        fixedWidth(
          ['scheduler', 'read MB/s', 'write MB/s', 'read IOPS', 'write IOPS', 'busy %'],
          input.summary.map((s) => [
            s.source === 'real' ? `${s.label} (real)` : s.label,
            fmtCi(s.device.readMBps.mean, s.device.readMBps.ci95, s.repetitions),
            fmtCi(s.device.writeMBps.mean, s.device.writeMBps.ci95, s.repetitions),
            fmt(s.device.readIops.mean),
            fmt(s.device.writeIops.mean),
            fmt(s.device.utilisation.mean * 100),
          ]),
        ),
    )
  const notes: string[] = []
  if (noisy) notes.push('* noisy: the runs vary by more than 5 % of their mean')
  if (repeated) notes.push('MB/s: mean ± 95 % confidence half-width; latency: means over the runs')
  const same = input.summary.filter(identicalRepetitions)
  if (same.length > 0)
    notes.push(
      wrap(
        `${IDENTICAL_REPETITIONS[0].toUpperCase()}${IDENTICAL_REPETITIONS.slice(1)}` +
          `${same.length < input.summary.filter((s) => s.repetitions > 1).length ? ` for ${same.map((s) => s.label).join(', ')}` : ''}: ` +
          'no confidence interval to show; every run of each came out the same.',
        76,
      ),
    )
  if (notes.length > 0) out.push(notes.join('\n'))
  const why = whyOf(input)
  if (why) out.push(why)
  const workload = workloadLines(input.spec)
  out.push(
    workload.length > 0
      ? `workload:\n${workload.map((l) => indent(wrap(l, 74))).join('\n')}`
      : 'workload: not recorded in this document (it holds the runs, not the spec)',
  )
  const tunables = tunableLines(input)
  if (tunables.length > 0)
    out.push(`schedulers and tunables:\n${tunables.map((l) => indent(wrap(l, 74))).join('\n')}`)
  return out.join('\n\n') + '\n'
}

/** Two spaces before each line; continuation lines four. */
const indent = (text: string): string =>
  text
    .split('\n')
    .map((l, i) => (i === 0 ? `  ${l}` : `    ${l}`))
    .join('\n')

/**
 * The why of the stop process (why-text.ts): of the simulated runs when there are any (a real
 * run's time is not split, and best against worst compares runs of one kind), else of the real
 * runs, named as the tables name them ("deadline (real)"). Empty without figures to show.
 */
function whyOf(input: ReportInput): string {
  const process = whyProcessOf(input.spec, input.runs)
  if (process === undefined) return ''
  const own = input.runs.filter((r) => !r.imported)
  const simulated = own.filter((r) => r.source === 'simulated')
  const runs = (simulated.length > 0 ? simulated : own).map((r) => ({ ...r, label: shownOf(r) }))
  return whyText(runs, process, 76)
}
