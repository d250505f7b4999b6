import type { RunResult } from '../experiment/result'
import { isNoisy, orderedWithMean } from '../metrics/compare-runs'
import { binPoints } from '../metrics/bin-points'
import { timeAxes } from '../metrics/time-axis'
import { LatencyHistogram } from '../metrics/histogram'
import { secondsOf } from './csv'
import { escapeHtml as h } from './escape'
import { fmt, fmtCi } from './format'
import { num } from '../util/people-numbers'
import type { ReportInput } from './input'
import { systemRowsOf } from '../experiment/real-system'
import { IDENTICAL_REPETITIONS, identicalAdvice, identicalRepetitions } from '../experiment/stability'
import { swatchClip } from './marks'
import type { RowStyle } from './marks'
import { stylesFor, TIME_PART_COLOURS } from './palette'
import { cssVariables, DARK, LIGHT } from './theme'
import { lineChart, stackedBarChart } from './svg-chart'
import type { ChartSeries } from './svg-chart'
import { TIME_PART_MEANING } from '../metrics/why'
import type { DecisionRow } from './why-figures'
import {
  decisionRows,
  explainShown,
  MECHANISM_NAME,
  pairedText,
  SHOWN_STAGES,
  stageHistogram,
  stageSourceText,
  TIME_PART_NAME,
  timeRows,
  usedParts,
  whyGaps,
  whyProcessOf,
} from './why-figures'

/** The app's colours, light or dark as the reader's system is; charts drawn on the panel colour. */
const STYLE = `
:root { color-scheme: light dark; ${cssVariables(LIGHT)} }
@media (prefers-color-scheme: dark) { :root { ${cssVariables(DARK)} } }
body { font: 14px/1.45 system-ui, sans-serif; color: var(--text); background: var(--bg); margin: 0 auto; max-width: 1000px; padding: 2em 1em; }
h1 { font-size: 1.6em; margin: 0 0 0.2em; } h2 { font-size: 1.2em; margin-top: 2em; padding-bottom: 0.2em; border-bottom: 1px solid var(--border); }
.wide { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.6em 0; background: var(--panel); } th, td { padding: 0.25em 0.7em; border-bottom: 1px solid var(--border); }
th { text-align: left; background: var(--chip); color: var(--muted); font-weight: 500; } td:first-child { white-space: nowrap; } td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.noisy { color: var(--warn); } .swatch { display: inline-block; width: 0.8em; height: 0.8em; margin-right: 0.4em; border-radius: 2px; }
pre { background: var(--panel); border: 1px solid var(--border); border-radius: 6px; padding: 1em; overflow: auto; font-size: 12px; }
figure { margin: 1em 0; } figure svg { max-width: 100%; height: auto; border: 1px solid var(--border); border-radius: 8px; }
svg .bg { fill: var(--panel); } svg .grid { stroke: var(--border); } svg .axis { stroke: var(--muted); } svg text { fill: var(--text); }
details > summary { cursor: pointer; color: var(--accent); }
.note { color: var(--muted); font-size: 0.9em; }
.identical { border-left: 3px solid var(--accent); background: var(--chip); padding: 0.5em 0.8em; }
.why { border-left: 3px solid var(--accent); padding: 0.1em 0 0.1em 0.8em; } .why b { background: var(--chip); border-radius: 4px; padding: 0 0.4em; }
`

/**
 * A self-contained HTML report in the app's colours: the experiment's name and description; first
 * the charts — throughput over time and latency CDFs per scheduler, as inline SVG; why the
 * schedulers differ for the experiment's stop process (the explanation with its mechanism, its
 * time split as stacked bars and in a table, its requests' stages and the decisions made for it);
 * then the side-by-side table (mean ± 95 % CI with repetitions, noisy results flagged), repeated
 * runs in order with their average, the environment, the imported runs' notes; last the spec, folded. No
 * scripts, no external resources; every text escaped.
 */
export function htmlReport(input: ReportInput): string {
  // the app's palette: a scheduler's colour by its name, a variant's shade (and past its shades, a
  // mark) by its label among the rows shown (as the app's results page picks them)
  const styles = stylesFor(input.summary.map((s) => ({ label: shown(s), scheduler: s.scheduler })))
  const colour: Colour = (x) => styles(shown(x), x.scheduler)
  const parts: string[] = [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${h(input.name)} — IOSched Lab report</title>`,
    `<style>${STYLE}</style></head><body>`,
    `<h1>${h(input.name)}</h1>`,
  ]
  if (input.description) parts.push(`<p>${h(input.description)}</p>`)
  parts.push('<h2>Throughput over time</h2>', ...throughputCharts(input, colour))
  parts.push('<h2>Latency</h2>', ...latencyCharts(input, colour))
  parts.push(...whySection(input, colour))
  parts.push('<h2>Results</h2>', resultsTable(input, colour))
  const repeated = repeatedTable(input)
  if (repeated) parts.push('<h2>Repeated runs</h2>', repeated)
  parts.push(
    '<h2>Environment</h2>',
    table(
      ['', ''],
      input.environment.map(([k, v]) => [h(k), h(v)]),
      0,
    ),
  )
  const system = systemRowsOf(input.runs)
  if (system.length > 0)
    parts.push(
      '<h2 id="system">System of the real runs</h2>',
      table(
        ['', ''],
        system.map(([k, v]) => [h(k), h(v)]),
        0,
      ),
    )
  const notes = input.runs.filter((r) => r.imported?.notes?.length)
  if (notes.length > 0) {
    parts.push('<h2>Imported runs</h2>')
    for (const r of notes)
      parts.push(
        `<p><b>${h(r.label)}</b> #${r.repetition + 1}, ${h(r.imported!.tool)}${r.imported!.version ? ` ${h(r.imported!.version)}` : ''}, ${h(r.imported!.file)}</p>`,
        `<ul>${r.imported!.notes!.map((n) => `<li>${h(n)}</li>`).join('')}</ul>`,
      )
  }
  if (input.spec !== null && input.spec !== undefined)
    parts.push(
      '<h2>Spec</h2>',
      '<details id="spec"><summary>The spec as run, every default filled in (JSON)</summary>',
      `<pre>${h(JSON.stringify(input.spec, null, 2))}</pre></details>`,
    )
  parts.push(
    '<p class="note">Written by IOSched Lab. MB = 10<sup>6</sup> bytes; latencies per operation.</p>',
  )
  parts.push('</body></html>')
  return parts.join('\n') + '\n'
}

function table(header: string[], rows: string[][], numericFrom = 1): string {
  const th = header.some((x) => x !== '') ? `<tr>${header.map((x) => `<th>${x}</th>`).join('')}</tr>` : ''
  const tr = rows.map(
    (r) =>
      `<tr>${r.map((c, i) => (i >= numericFrom && numericFrom > 0 ? `<td class="n">${c}</td>` : `<td>${c}</td>`)).join('')}</tr>`,
  )
  return `<div class="wide"><table>${th}${tr.join('')}</table></div>`
}

/** The spec's seed, when the document holds the spec. */
const seedOf = (spec: unknown): number | null =>
  typeof spec === 'object' && spec !== null && typeof (spec as { seed?: unknown }).seed === 'number'
    ? (spec as { seed: number }).seed
    : null

/** A row's or run's name as the app shows it: a real one with "(real)". */
const shown = (x: { label: string; source: string }): string =>
  x.source === 'real' ? `${x.label} (real)` : x.label

type Colour = (x: { label: string; scheduler: string; source: string }) => RowStyle

/** A row's swatch: its colour, cut to its mark's shape. */
const swatchOf = (style: RowStyle | undefined): string =>
  `<span class="swatch" style="background:${style?.colour ?? '#888'}${swatchClip(style?.mark ?? 0)}"></span>`

function resultsTable(input: ReportInput, colour: Colour): string {
  const names: string[] = []
  for (const s of input.summary) for (const p of s.processes) if (!names.includes(p.name)) names.push(p.name)
  const header = ['scheduler']
  for (const n of names)
    header.push(`${h(n)} MB/s`, `${h(n)} IOPS`, `${h(n)} s`, `${h(n)} p50 / p95 / p99 / p99.9 / max ms`)
  header.push('device read MB/s', 'device write MB/s', 'device read IOPS', 'device write IOPS')
  const rows = input.summary.map((s) => {
    const cells = [`${swatchOf(colour(s))}${h(s.label)}${s.source === 'real' ? ' (real)' : ''}`]
    for (const n of names) {
      const p = s.processes.find((x) => x.name === n)
      if (!p) {
        cells.push('-', '-', '-', '-')
        continue
      }
      const noisy = isNoisy(secondsOf(input.runs, s.label, n))
      cells.push(
        h(fmtCi(p.MBps.mean, p.MBps.ci95, s.repetitions)),
        h(fmt(p.IOPS.mean)),
        `${noisy ? '<span class="noisy" title="noisy: the runs vary by more than 5 %">⚠ </span>' : ''}${h(fmtCi(p.seconds.mean, p.seconds.ci95, s.repetitions))}`,
        h(
          [p.latencyMs.p50, p.latencyMs.p95, p.latencyMs.p99, p.latencyMs.p999, p.latencyMs.max]
            .map((x) => fmt(x.mean))
            .join(' / '),
        ),
      )
    }
    cells.push(
      h(fmtCi(s.device.readMBps.mean, s.device.readMBps.ci95, s.repetitions)),
      h(fmtCi(s.device.writeMBps.mean, s.device.writeMBps.ci95, s.repetitions)),
      h(fmt(s.device.readIops.mean)),
      h(fmt(s.device.writeIops.mean)),
    )
    return cells
  })
  const reps = input.summary.some((s) => s.repetitions > 1)
  const same = input.summary.filter(identicalRepetitions)
  const all = same.length > 0 && same.length === input.summary.filter((s) => s.repetitions > 1).length
  return (
    table(header, rows) +
    (reps
      ? '<p class="note">With repetitions: mean ± 95 % confidence half-width; ⚠ noisy (coefficient of variation over 5 %).</p>'
      : '') +
    (same.length > 0
      ? `<p class="identical"><b>${h(IDENTICAL_REPETITIONS[0].toUpperCase() + IDENTICAL_REPETITIONS.slice(1))}</b>${all ? '' : ` for ${h(same.map(shown).join(', '))}`}: no confidence interval to show. ${h(identicalAdvice(seedOf(input.spec)))}</p>`
      : '')
  )
}

function repeatedTable(input: ReportInput): string | null {
  if (!input.summary.some((s) => s.repetitions > 1)) return null
  const rows: string[][] = []
  for (const s of input.summary)
    for (const p of s.processes) {
      const o = orderedWithMean(secondsOf(input.runs, s.label, p.name))
      rows.push([h(s.label), h(p.name), h(o.ordered.map((x) => fmt(x)).join('  ')), h(fmt(o.mean))])
    }
  return table(['scheduler', 'process', 'seconds, runs in order', 'average'], rows, 2)
}

/** The first repetition of each label. */
const firstRuns = (input: ReportInput): RunResult[] =>
  input.summary
    .map((s) => input.runs.find((r) => r.label === s.label && r.source === s.source)!)
    .filter(Boolean)

function throughputCharts(input: ReportInput, colour: Colour): string[] {
  const runs = firstRuns(input).filter((r) => r.timeSeries.tMs.length > 0)
  if (runs.length === 0) return ['<p class="note">No run has a time series.</p>']
  // as the app's chart: runs of very different lengths on per cent of each run, its length in the legend
  const each =
    timeAxes(
      'auto',
      runs.map((r) => r.seconds),
    ) === 'each'
  const chart = (title: string, pick: (r: RunResult) => number[]): string => {
    const series: ChartSeries[] = runs.map((r) => {
      const points = binPoints(r.timeSeries, pick(r), r.seconds)
      const k = r.seconds > 0 ? 100 / r.seconds : 0
      return each
        ? {
            name: `${shown(r)}, ${num(r.seconds)} s`,
            ...colour(r),
            points: points.map(([x, y]) => [x * k, y]),
          }
        : { name: shown(r), ...colour(r), points }
    })
    const xLabel = each ? 'time (% of each run)' : 'time (s)'
    return `<figure>${lineChart({ title, xLabel, yLabel: 'MB/s', series })}</figure>`
  }
  const notes = [
    ...(each
      ? [
          `<p class="note">The runs last from ${h(num(Math.min(...runs.map((r) => r.seconds))))} to ${h(num(Math.max(...runs.map((r) => r.seconds))))} s: time in per cent of each run, so that the longest does not squash the others.</p>`,
        ]
      : []),
    ...(input.summary.some((s) => s.repetitions > 1)
      ? ['<p class="note">The first repetition of each scheduler.</p>']
      : []),
  ]
  return [
    chart('Read throughput (the vmstat bi view)', (r) => r.timeSeries.readMBps),
    chart('Write throughput (the vmstat bo view)', (r) => r.timeSeries.writeMBps),
    ...notes,
  ]
}

function latencyCharts(input: ReportInput, colour: Colour): string[] {
  const names: string[] = []
  for (const s of input.summary) for (const p of s.processes) if (!names.includes(p.name)) names.push(p.name)
  const out: string[] = []
  for (const name of names) {
    const series: ChartSeries[] = []
    for (const s of input.summary) {
      const hist = new LatencyHistogram()
      for (const r of input.runs)
        if (r.label === s.label && r.source === s.source)
          for (const p of r.processes)
            if (p.name === name || p.name.startsWith(`${name}/`)) {
              try {
                hist.merge(LatencyHistogram.fromJSON(p.latency))
              } catch {
                // a histogram of another bucketing: left out of the chart
              }
            }
      if (hist.count > 0)
        series.push({
          name: shown(s),
          ...colour(s),
          points: hist.cdf(300).map((c): [number, number] => [c.valueNs / 1e6, c.fraction]),
        })
    }
    if (series.length > 0)
      out.push(
        `<figure>${lineChart({ title: `Latency CDF: ${name}`, xLabel: 'latency per operation (ms, log scale)', yLabel: 'fraction ≤ x', series, logX: true, yMax: 1 })}</figure>`,
      )
  }
  return out.length > 0 ? out : ['<p class="note">No latency distributions in these runs.</p>']
}

/**
 * Why the schedulers differ for the process the experiment stops on: the explanation (simulated
 * runs among themselves, real ones among themselves) with the mechanism named, where its time went
 * per scheduler (stacked bars, then the seconds in a table), its requests' stages (means, ms) with
 * what each scheduler decided for it, and what the runs lack. Nothing when no run has a process.
 */
function whySection(input: ReportInput, colour: Colour): string[] {
  const process = whyProcessOf(input.spec, input.runs)
  if (process === undefined) return []
  const labels = input.summary.map(shown)
  const styleOf = new Map(input.summary.map((s) => [shown(s), colour(s)]))
  const swatch = (l: string): string => `${swatchOf(styleOf.get(l))}${h(l)}`
  const out: string[] = ['<h2 id="why">Why</h2>']
  const explanations = explainShown(input.runs, process, labels)
  for (const e of explanations)
    out.push(
      `<div class="why" data-mechanism="${h(e.mechanism)}"><p><b>${h(MECHANISM_NAME[e.mechanism])}</b> ${h(pairedText(e))}</p>`,
      `<p>${h(e.text)}</p></div>`,
    )
  if (explanations.length === 0)
    out.push(`<p class="note">Fewer than two schedulers ran the ${h(process)}: nothing to explain.</p>`)
  const rows = timeRows(input.runs, labels, process)
  if (rows.length > 0) {
    const used = usedParts(rows)
    out.push(
      `<figure>${stackedBarChart({
        title: `Where the ${process}’s time went`,
        xLabel: `the ${process}’s time (s)`,
        parts: used.map((k) => ({ name: TIME_PART_NAME[k], colour: TIME_PART_COLOURS[k] })),
        rows: rows.map((r) => ({ name: r.label, values: used.map((k) => r.time[k]) })),
      })}</figure>`,
      table(
        [
          'scheduler',
          'total s',
          ...used.map((k) => `<span title="${h(TIME_PART_MEANING[k])}">${h(TIME_PART_NAME[k])}</span>`),
        ],
        rows.map((r) => [swatch(r.label), h(fmt(r.seconds)), ...used.map((k) => h(fmt(r.time[k])))]),
      ),
    )
    if (rows.some((r) => r.runs > 1))
      out.push('<p class="note">Seconds: the mean over each scheduler’s runs.</p>')
  }
  const decisions = decisionRows(input.runs, labels, process)
  if (decisions.length > 0) {
    const from = stageSourceText(input.runs, process)
    const mean = (l: string, k: (typeof SHOWN_STAGES)[number]): string => {
      const hist = stageHistogram(input.runs, l, process, k)
      return hist && hist.count > 0 ? fmt(hist.mean / 1e6) : '-'
    }
    // counts as the app's panel shows them (num): 8, not 8.00; means over repetitions keep their digits
    const opt = (v: number | null): string => (v === null ? '-' : num(v))
    // the machinery's waits and preemptions, where some row has them (as the app's panel)
    const extra = MACHINERY_COLUMNS.filter(([, f]) => decisions.some((d) => f(d) !== null))
    out.push(
      table(
        [
          'scheduler',
          'requests',
          ...SHOWN_STAGES.map((k) => `${k.toUpperCase()} ms`),
          'runs',
          'waits',
          'rewarded',
          'moved on',
          'FIFO expired',
          'merged',
          'seeks',
          ...extra.map(([head]) => head),
        ],
        decisions.map((d) => [
          swatch(d.label),
          h(num(d.requests)),
          ...SHOWN_STAGES.map((k) => h(mean(d.label, k))),
          h(num(d.batches)),
          h(opt(d.waits)),
          h(d.rewardedPct === null ? '-' : `${fmt(d.rewardedPct)} %`),
          h(opt(d.deceived)),
          h(num(d.expired)),
          h(num(d.merged)),
          h(num(d.seeks)),
          ...extra.map(([head, f]) => {
            const v = f(d)
            return h(v === null ? '-' : head.endsWith('%') ? `${fmt(v)} %` : num(v))
          }),
        ]),
      ),
      `<p class="note">The ${h(process)}’s requests: mean ms per stage (btt’s Q2G waiting for a request slot, I2D in the scheduler, D2C at the device, Q2C all of it); runs of consecutive dispatches; waits the scheduler made for it (the device kept idle) and the share its next request rewarded; times the device moved on while it only looked idle${extra.length > 0 ? `; ${extra.map(([head, , meaning]) => `${head}: ${meaning}`).join('; ')}` : ''}.${from ? ` Real runs’ stages ${h(from)}.` : ''}</p>`,
    )
  }
  const gaps = whyGaps(input.runs, labels, process)
  if (gaps.notes.length > 0)
    out.push(`<ul class="note">${gaps.notes.map((n) => `<li>${h(n)}</li>`).join('')}</ul>`)
  return out
}

/** The machinery's columns of the decisions table: head, figure, meaning (why-figures.ts DecisionRow). */
const MACHINERY_COLUMNS: [string, (d: DecisionRow) => number | null, string][] = [
  ['class held, ms', (d) => d.heldMs, 'time its requests waited behind a higher I/O priority class'],
  ['run wait, ms', (d) => d.runWaitMs, 'time they waited for the queue to run again once they could go'],
  ['behind flushes, ms', (d) => d.flushWaitMs, 'time they queued behind a loop worker’s flushes'],
  ['lag preempts %', (d) => d.lagPreemptPct, 'its wake-ups to a busy CPU that preempted by EEVDF lag'],
]
