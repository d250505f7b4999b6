// The why of a comparison as figures (the app's Why panel, the HTML report) and its charts' data:
// from a small flagship (a cat while a looping dd writes, 2003's disk) under deadline and
// anticipatory, two repetitions each, beside a real run without blktrace and an imported one.
import { beforeAll, describe, expect, it } from 'vitest'
import { explain, MECHANISMS } from '../../src/shared/experiment/explain'
import type { RunResult } from '../../src/shared/experiment/result'
import { simulate } from '../../src/shared/experiment/runner'
import { resolveSpec } from '../../src/shared/experiment/validate'
import type { ResolvedSpec } from '../../src/shared/experiment/resolved'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'
import { TIME_PARTS } from '../../src/shared/metrics/why'
import { htmlReport } from '../../src/shared/report/html'
import { reportInput } from '../../src/shared/report/input'
import { TIME_PART_COLOURS } from '../../src/shared/report/palette'
import { stackedBarChart } from '../../src/shared/report/svg-chart'
import { mailingListText } from '../../src/shared/report/text'
import { whyText } from '../../src/shared/report/why-text'
import {
  decisionRows,
  explainShown,
  MECHANISM_NAME,
  pairedText,
  stageHistogram,
  stageSourceText,
  TIME_PART_NAME,
  timeRows,
  usedParts,
  whyGaps,
  whyProcessOf,
} from '../../src/shared/report/why-figures'
import { timeSeries } from '../../src/renderer/src/lib/why-charts'

const small = {
  name: 'why-small',
  device: { preset: 'hdd-2003-ide' },
  host: { preset: 'linux-2003' },
  repetitions: 2,
  workload: {
    files: [
      { name: 'foo', size: '128M' },
      { name: 'bar', size: '24M' },
    ],
    processes: [
      { name: 'writer', type: 'dd', params: { op: 'write', file: 'foo', bs: '1M', count: 128, loop: true } },
      { name: 'reader', type: 'cat', params: { file: 'bar', size: '24M' }, startMs: 2000 },
    ],
    stop: { processes: ['reader'], maxSeconds: 300 },
  },
  schedulers: ['deadline', 'anticipatory'],
}

const LABELS = ['deadline', 'anticipatory']

let spec: ResolvedSpec
let sim: RunResult[] = []
/** A real run of deadline without blktrace (no stages, no time split), and an imported one. */
let real: RunResult
let imported: RunResult

beforeAll(() => {
  spec = resolveSpec(small)
  sim = [0, 1].flatMap((i) => [0, 1].map((rep) => simulate(spec, i, rep)))
  const strip = (r: RunResult): RunResult => {
    const { why: _why, ...rest } = r
    return { ...rest, processes: r.processes.map(({ time: _t, ...p }) => p) }
  }
  real = { ...strip(sim[0]), source: 'real' }
  imported = { ...strip(sim[2]), label: 'fio-import', imported: { tool: 'fio', file: 'x.json' } }
}, 120_000)

describe('the why of a comparison, as figures', () => {
  it('splits the reader’s time per scheduler: the mean over its runs, parts adding up to its time', () => {
    const rows = timeRows(sim, LABELS, 'reader')
    expect(rows.map((r) => r.label)).toEqual(LABELS)
    for (const r of rows) {
      expect(r.runs).toBe(2)
      const own = sim
        .filter((x) => x.label === r.label)
        .map((x) => x.processes.find((p) => p.name === 'reader')!)
      expect(r.seconds).toBeCloseTo((own[0].seconds + own[1].seconds) / 2, 9)
      expect(r.time.read).toBeCloseTo((own[0].time!.read + own[1].time!.read) / 2, 9)
      const sum = TIME_PARTS.reduce((a, k) => a + r.time[k], 0)
      expect(sum).toBeCloseTo(r.seconds, 2)
    }
    // a cat is blocked on its reads, longer under deadline
    expect(usedParts(rows)).toContain('read')
    expect(rows[0].time.read).toBeGreaterThan(rows[1].time.read)
    // a run without a split has no row
    expect(timeRows([...sim, real], [...LABELS, 'deadline (real)'], 'reader').map((r) => r.label)).toEqual(
      LABELS,
    )
  })

  it('merges a stage’s histograms over the runs, none for a run without stages', () => {
    const h = stageHistogram(sim, 'deadline', 'reader', 'i2d')!
    const both = sim
      .filter((r) => r.label === 'deadline')
      .map((r) => r.why!.processes.find((p) => p.process === 'reader')!.stages.i2d.count)
    expect(h).toBeInstanceOf(LatencyHistogram)
    expect(h.count).toBe(both[0] + both[1])
    expect(stageHistogram([real], 'deadline (real)', 'reader', 'i2d')).toBeNull()
    expect(stageHistogram(sim, 'kyber', 'reader', 'i2d')).toBeNull()
  })

  it('counts the decisions: deadline moves on while the reader looks idle, anticipatory waits', () => {
    const [dl, as] = decisionRows(sim, LABELS, 'reader')
    expect(dl.label).toBe('deadline')
    const first = sim[0].why!.processes.find((p) => p.process === 'reader')!
    const second = sim[1].why!.processes.find((p) => p.process === 'reader')!
    expect(dl.batches).toBe((first.batches + second.batches) / 2)
    expect(dl.deceived).toBe((first.deceived!.switches + second.deceived!.switches) / 2)
    expect(dl.deceived!).toBeGreaterThan(as.deceived!)
    expect(as.batches).toBeLessThan(dl.batches)
    if (as.waits! > 0) expect(as.rewardedPct).not.toBeNull()
    else expect(as.rewardedPct).toBeNull()
  })

  it('heads an explanation with the runs it sets against each other, or says they were alike', () => {
    expect(pairedText(explain(sim, 'reader')!)).toBe("deadline against anticipatory, by the reader's time")
    // every scheduler the same: not "noop against noop"
    const same = ['noop', 'deadline'].map((label) => ({ ...sim[0], label, scheduler: label }))
    const alike = explain(same, 'reader')!
    expect(alike.text).toContain('nothing to explain')
    expect(pairedText(alike)).toBe("every scheduler alike, by the reader's time")
    const html = htmlReport(reportInput(same))
    expect(html).toMatch(/<b>no mechanism found<\/b> every scheduler alike, by the reader(&#39;|')s time/)
    expect(html).not.toContain('noop against noop')
  })

  it('explains simulated runs among themselves and real ones among themselves', () => {
    const sims = explainShown(sim, 'reader')
    expect(sims).toHaveLength(1)
    expect(sims[0]).toEqual(explain(sim, 'reader'))
    expect(sims[0]).toMatchObject({
      worst: 'deadline',
      best: 'anticipatory',
      mechanism: 'deceptive-idleness',
    })
    // of rows alike, the first in the table is named, whatever order the runs came in (the app
    // streams them as they finish): "deadline", not its copy "deadline-b" that finished first
    const copy = sim.filter((r) => r.label === 'deadline').map((r) => ({ ...r, label: 'deadline-b' }))
    const rows = ['deadline', 'deadline-b', 'anticipatory']
    for (const order of [[...copy, ...sim], [...sim, ...copy], [...sim].reverse().concat(copy)])
      expect(explainShown(order, 'reader', rows)[0]).toMatchObject({
        worst: 'deadline',
        best: 'anticipatory',
      })
    expect(explainShown([...copy, ...sim], 'reader')[0].worst).toBe('deadline-b') // the runs' order alone
    // one real run: nothing to compare it with, and never with a simulated one
    expect(explainShown([...sim, real], 'reader')).toEqual(sims)
    const realAs = { ...real, label: 'anticipatory', scheduler: 'anticipatory', seconds: real.seconds / 4 }
    realAs.processes = real.processes.map((p) => ({ ...p, seconds: p.seconds / 4 }))
    const both = explainShown([...sim, real, realAs], 'reader')
    expect(both.map((e) => [e.worst, e.best])).toEqual([
      ['deadline', 'anticipatory'],
      ['deadline (real)', 'anticipatory (real)'],
    ])
    // a real run without blktrace: no mechanism to name
    expect(both[1].mechanism).toBe('none')
    for (const m of MECHANISMS) expect(MECHANISM_NAME[m].length).toBeGreaterThan(0)
  })

  it('says what real and imported runs lack, instead of drawing it empty', () => {
    const labels = [...LABELS, 'deadline (real)', 'fio-import']
    const g = whyGaps([...sim, real, imported], labels, 'reader')
    expect(g.noTime).toEqual(['deadline (real)', 'fio-import'])
    expect(g.noStages).toEqual(['deadline (real)', 'fio-import'])
    expect(g.notes.join('\n')).toMatch(/real runs \(deadline \(real\)\): the stages .* need blktrace/)
    expect(g.notes.join('\n')).toContain('simulated only')
    expect(g.notes.join('\n')).toContain('imported runs (fio-import)')
    expect(whyGaps(sim, LABELS, 'reader')).toEqual({ noTime: [], noStages: [], notes: [] })
  })

  it('says what traced a real run’s stages: blktrace, or the tracepoints where blktrace could not', () => {
    const traced = (r: RunResult, source: 'blktrace' | 'tracefs', label = r.label): RunResult => ({
      ...r,
      label,
      source: 'real',
      why: { ...r.why!, source },
    })
    // a simulation's stages are the simulator's own; an untraced real run has none
    expect(stageSourceText([...sim, real], 'reader')).toBeNull()
    expect(stageSourceText([...sim, traced(sim[0], 'blktrace')], 'reader')).toBe('traced with blktrace')
    const fallback = [traced(sim[0], 'tracefs'), traced(sim[2], 'tracefs')]
    expect(stageSourceText(fallback, 'reader')).toBe(
      "traced with the kernel's block tracepoints via tracefs, where blktrace could not trace",
    )
    // each source with its rows when they differ
    expect(stageSourceText([traced(sim[0], 'blktrace'), traced(sim[2], 'tracefs')], 'reader')).toBe(
      "traced with blktrace (deadline (real)); with the kernel's block tracepoints via tracefs, where blktrace could not trace (anticipatory (real))",
    )
    // where the stages are shown: the HTML report's stage table and the text's
    const input = reportInput({
      schema: 'iosched-lab/experiment@1',
      name: 'why-small',
      spec,
      runs: [...sim, ...fallback],
      startedAt: '2025-01-01T00:00:00Z',
      wallSeconds: 1,
    })
    expect(htmlReport(input)).toContain(
      'Real runs’ stages traced with the kernel&#39;s block tracepoints via tracefs, where blktrace could not trace.',
    )
    // run's text (the mailing-list text explains the simulated runs when there are any)
    const text = whyText([...sim, ...fallback], 'reader', 100).replace(/\s+/g, ' ')
    expect(text).toContain(
      "mean ms per stage (btt's Q2G slot, I2D scheduler, D2C device; real runs, traced with the kernel's block tracepoints via tracefs, where blktrace could not trace):",
    )
    expect(text).toContain("(btt's Q2G slot, I2D scheduler, D2C device; simulated runs):")
  })

  it('picks the stop process, else the one every run finished', () => {
    expect(whyProcessOf(spec, sim)).toBe('reader')
    expect(whyProcessOf(small, sim)).toBe('reader')
    // run --json's output holds no spec: the looping writer never finishes, the reader does
    expect(whyProcessOf(null, sim)).toBe('reader')
    expect(whyProcessOf(null, [])).toBeUndefined()
    expect(whyProcessOf({ stop: { processes: ['rr/0'] } }, sim)).toBe('reader')
  })
})

describe('the Why panel’s stacked bars', () => {
  it('has a series per part used, in the part’s colour, bars in seconds or summing to 100 %', () => {
    const rows = timeRows(sim, LABELS, 'reader')
    const s = timeSeries(rows, 'seconds')
    expect(s.map((x) => x.part)).toEqual(usedParts(rows))
    for (const x of s) {
      expect(x.label).toBe(TIME_PART_NAME[x.part])
      expect(x.backgroundColor).toBe(TIME_PART_COLOURS[x.part])
      expect(x.data).toEqual(rows.map((r) => r.time[x.part]))
      expect(x.seconds).toEqual(x.data)
    }
    const share = timeSeries(rows, 'share')
    rows.forEach((_, i) => expect(share.reduce((a, x) => a + x.data[i], 0)).toBeCloseTo(100, 9))
    expect(share[0].seconds).toEqual(s[0].seconds)
    expect(timeSeries([], 'seconds')).toEqual([])
  })

  it('gives every part a distinct colour', () => {
    const colours = TIME_PARTS.map((k) => TIME_PART_COLOURS[k])
    expect(colours.every((c) => /^#[0-9A-F]{6}$/.test(c))).toBe(true)
    expect(new Set(colours).size).toBe(TIME_PARTS.length)
  })
})

describe('the reports’ why', () => {
  it('draws a stacked bar per row in SVG, every text escaped', () => {
    const svg = stackedBarChart({
      title: 'Where <the> time went',
      xLabel: 's',
      parts: [
        { name: 'reads', colour: '#F28E2B' },
        { name: 'cpu', colour: '#4E79A7' },
      ],
      rows: [
        { name: 'dead<line>', values: [30, 1] },
        { name: 'as', values: [4, 0] },
      ],
    })
    expect(svg).toContain('Where &lt;the&gt; time went')
    expect(svg).toContain('dead&lt;line&gt;')
    expect(svg).not.toContain('<line>')
    // three bar segments: a part of 0 draws nothing
    expect(svg.match(/<rect [^>]*fill="#(F28E2B|4E79A7)"><title>/g)).toHaveLength(3)
  })

  it('has a Why section in the HTML report and the why in the mailing-list text', () => {
    const input = reportInput({
      schema: 'iosched-lab/experiment@1',
      name: 'why-small',
      spec,
      runs: sim,
      startedAt: '2025-01-01T00:00:00Z',
      wallSeconds: 1,
    })
    const html = htmlReport(input)
    const e = explain(sim, 'reader')!
    expect(html).toContain('<h2 id="why">Why</h2>')
    expect(html).toContain('data-mechanism="deceptive-idleness"')
    expect(html).toContain('<b>deceptive idleness</b>')
    expect(html).toContain('aria-label="Where the reader’s time went"')
    expect(html).toContain(e.text.slice(0, 60))
    // the decisions' counts as the app's panel shows them: 64, not 64.0
    const decisions = html.slice(html.indexOf('<th>FIFO expired</th>'))
    const deadline = /<tr><td><span class="swatch"[^>]*><\/span>deadline<\/td>(.*?)<\/tr>/.exec(decisions)![1]
    const cells = [...deadline.matchAll(/<td class="n">([^<]*)<\/td>/g)].map((m) => m[1])
    expect(cells[0]).toMatch(/^[\d,]+$/)
    for (const c of cells) expect(c).not.toMatch(/^\d+\.0+$/)
    const text = mailingListText(input)
    expect(text).toContain("where the reader's time went")
    // the mechanism named beside the sentence, as in the HTML report and the app
    expect(text).toContain('why (deceptive idleness):\n  Under deadline the reader took')
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(80)
  })
})
