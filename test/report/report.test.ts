import { describe, expect, it } from 'vitest'
import { runsCsv, summaryCsv } from '../../src/shared/report/csv'
import { fmt } from '../../src/shared/report/format'
import { htmlReport } from '../../src/shared/report/html'
import { reportInput, ReportInputError } from '../../src/shared/report/input'
import { reportJson } from '../../src/shared/report/json'
import { MARKS } from '../../src/shared/report/marks'
import { SCHEDULER_COLOURS, schedulerColour, shadesOf, stylesFor } from '../../src/shared/report/palette'
import { lineChart, ticks } from '../../src/shared/report/svg-chart'
import { mailingListText } from '../../src/shared/report/text'
import { importText } from '../../src/shared/import/import-text'
import { DD_BSD_1997, VMSTAT_2003 } from '../formats/fixtures'
import { runOutput, syntheticRuns } from './runs'

const runs = syntheticRuns({
  deadline: [48.6, 47.1, 47.9],
  anticipatory: [3.9, 3.7, 3.8],
  'cfq-v1': [27, 31, 24],
})
const input = reportInput(JSON.parse(JSON.stringify(runOutput('streaming read under write', runs))))

describe('report input', () => {
  it('reads run --json, experiment results, sessions, import --json and bare run lists', () => {
    expect(input.name).toBe('streaming read under write')
    expect(input.summary.map((s) => [s.label, s.repetitions])).toEqual([
      ['deadline', 3],
      ['anticipatory', 3],
      ['cfq-v1', 3],
    ])
    expect(input.environment).toContainEqual(['device preset', 'hdd-2003-ide'])
    const experiment = {
      schema: 'iosched-lab/experiment@1',
      name: 'x',
      spec: { device: { preset: 'p' }, seed: 3, description: 'd' },
      runs,
      summary: [],
    }
    const e = reportInput(experiment)
    expect(e).toMatchObject({ name: 'x', description: 'd' })
    expect(e.environment).toContainEqual(['seed', '3'])
    expect(
      reportInput({ schema: 'iosched-lab/session@1', savedAt: 'then', app: '0.1.0', result: experiment })
        .name,
    ).toBe('x')
    // a session's save time as the app and `sessions` show it, not as stored
    const saved = reportInput({
      schema: 'iosched-lab/session@2',
      name: 's',
      savedAt: '2026-12-05T23:08:41.512Z',
      app: '0.1.0',
      result: experiment,
      runs: [],
    }).environment.find(([k]) => k === 'saved')
    expect(saved?.[1]).toBe('2026-12-05 23:08 UTC')
    const imported = {
      schema: 'iosched-lab/import@1',
      files: [{ runs: importText(DD_BSD_1997, 'q.txt').runs.map((r) => r.run) }],
    }
    expect(reportInput(JSON.parse(JSON.stringify(imported))).environment).toContainEqual([
      'imported from',
      'BSD dd',
    ])
    expect(reportInput(runs).runs).toHaveLength(9)
  })

  it('refuses other documents, saying what it expected', () => {
    expect(() => reportInput({ schema: 'iosched-lab/spec@1' })).toThrow(ReportInputError)
    expect(() => reportInput({ schema: 'iosched-lab/spec@1' })).toThrow(
      /unknown document "iosched-lab\/spec@1"/,
    )
    expect(() => reportInput({ schema: 'iosched-lab/run-output@1', experiment: 'x', runs: [{}] })).toThrow(
      'runs[0]: not a run',
    )
    expect(() => reportInput({ schema: 'iosched-lab/session@1', result: null })).toThrow(/holds no result/)
  })
})

describe('the mailing-list text', () => {
  const text = mailingListText(input)
  /** The reader's table (the runs' sources come before it, under the same labels). */
  const readerTable = text.split('\n\n').find((b) => b.startsWith('reader'))!

  it('lists each scheduler’s run times in order with their average, fixed-width under 80 columns', () => {
    expect(text).toContain('reader (105 MB each):')
    const line = readerTable.split('\n').find((l) => l.startsWith('deadline '))!
    expect(line).toMatch(/^deadline\s+47\.1 47\.9 48\.6\s+47\.9\s/)
    expect(readerTable.split('\n').find((l) => l.startsWith('anticipatory '))).toMatch(
      /3\.70 3\.80 3\.90\s+3\.80/,
    )
    for (const l of text.split('\n')) expect(l.length).toBeLessThanOrEqual(80)
    // columns line up: every row of a table is as wide as its rule
    const table = text
      .split('\n\n')
      .find((b) => b.startsWith('reader'))!
      .split('\n')
      .slice(1)
    const rule = table[1]
    expect(rule).toMatch(/^-+( {2}-+)+$/)
  })

  it('puts IOPS beside MB/s, per process and for the device', () => {
    const header = text.split('\n').find((l) => l.startsWith('scheduler ') && l.includes('MB/s'))!
    expect(header).toMatch(/MB\/s\s+IOPS\s+p99 ms/)
    expect(text).toMatch(/read MB\/s\s+write MB\/s\s+read IOPS\s+write IOPS\s+busy %/)
    const deadline = input.summary.find((s) => s.label === 'deadline')!
    const iops = deadline.processes.find((p) => p.name === 'reader')!.IOPS.mean
    expect(iops).toBeGreaterThan(0)
    const row = readerTable.split('\n').find((l) => l.startsWith('deadline '))!
    expect(row.split(/\s{2,}/)).toContain(fmt(iops))
  })

  it('flags noisy runs (a coefficient of variation over 5 %)', () => {
    expect(readerTable.split('\n').find((l) => l.startsWith('cfq-v1 '))).toContain('24.0 27.0 31.0 *')
    expect(text).toContain('* noisy: the runs vary by more than 5 % of their mean')
    expect(text).toContain('MB/s: mean ± 95 % confidence half-width')
  })
})

describe('CSV and JSON', () => {
  it('writes one CSV row per run and process, quoted where needed, NaN empty', () => {
    const csv = runsCsv(input.runs).trimEnd().split('\n')
    expect(csv).toHaveLength(1 + 9)
    expect(csv[0].split(',')).toContain('MBps')
    const odd = syntheticRuns({ 'a, "b"': [1] })
    expect(runsCsv(odd).split('\n')[1]).toMatch(/^"a, ""b""",ab,simulated,0,/)
    const vm = importText(VMSTAT_2003, 'vm.log').runs[0].run
    const row = runsCsv([vm]).split('\n')[1].split(',')
    expect(row[7]).toBe('') // no process
    expect(row[15]).toBe('') // no latency: empty, not NaN
    const s = summaryCsv(input.summary, input.runs).trimEnd().split('\n')
    expect(s).toHaveLength(4)
    expect(s[0]).toContain('seconds_mean,seconds_median,seconds_stddev,seconds_ci95')
    expect(s.find((l) => l.startsWith('cfq-v1,'))!.split(',')[6]).toBe('true')
  })

  it('adds IOPS, p95 and the run’s kind after the CSVs’ earlier columns, which keep their places', () => {
    const csv = runsCsv(input.runs).trimEnd().split('\n')
    const head = csv[0].split(',')
    expect(head.slice(-3)).toEqual(['iops', 'p95_ms', 'kind'])
    expect(head.indexOf('MBps')).toBe(12)
    const r = input.runs[0]
    const row = csv[1].split(',')
    expect(Number(row[head.indexOf('iops')])).toBeCloseTo(r.processes[0].ops / r.processes[0].seconds, 9)
    expect(Number(row[head.indexOf('p95_ms')])).toBe(r.processes[0].latencyMs.p95)
    expect(row.at(-1)).toBe('simulated')
    const s = summaryCsv(input.summary, input.runs).trimEnd().split('\n')
    const sh = s[0].split(',')
    expect(sh.at(-1)).toBe('kind')
    const deadline = input.summary.find((x) => x.label === 'deadline')!
    const line = s.find((l) => l.startsWith('deadline,'))!.split(',')
    expect(Number(line[sh.indexOf('IOPS_mean')])).toBeCloseTo(deadline.processes[0].IOPS.mean, 9)
    expect(Number(line[sh.indexOf('p999_ms_mean')])).toBe(deadline.processes[0].latencyMs.p999.mean)
  })

  it('writes JSON with the summary, the ordered repeated runs and every run', () => {
    const doc = JSON.parse(reportJson(input))
    expect(doc.schema).toBe('iosched-lab/report@1')
    expect(doc.runs).toHaveLength(9)
    expect(doc.repeated.find((r: { label: string }) => r.label === 'deadline')).toMatchObject({
      process: 'reader',
      secondsOrdered: [47.1, 47.9, 48.6],
      noisy: false,
    })
  })
})

describe('the HTML report', () => {
  const nasty = syntheticRuns({ '<script>alert(1)</script>': [2, 2.2], 'a&b "q"': [3] })
  const html = htmlReport(
    reportInput({
      schema: 'iosched-lab/experiment@1',
      name: 'x </title><script>bad()</script>',
      spec: { description: '<img src=x onerror=alert(2)>', note: '</pre><b>' },
      runs: JSON.parse(JSON.stringify(nasty)),
      summary: [],
    }),
  )

  it('is self-contained: no scripts, no external resources', () => {
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true)
    expect(html).not.toMatch(/<script/i)
    expect(html).not.toMatch(/<[^>]*\s(src|href)=/i)
    expect(html.replace(/xmlns="http:\/\/www\.w3\.org\/2000\/svg"/g, '')).not.toMatch(/https?:/)
    expect(html).not.toMatch(/<img/i)
  })

  it('escapes every text', () => {
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).toContain('x &lt;/title&gt;&lt;script&gt;bad()&lt;/script&gt;')
    expect(html).toContain('a&amp;b &quot;q&quot;')
    expect(html).toContain('&lt;/pre&gt;&lt;b&gt;')
  })

  it('puts IOPS beside MB/s and p95 and p99.9 among the latencies of its results table', () => {
    const full = htmlReport(input)
    for (const h of [
      'reader MB/s',
      'reader IOPS',
      'reader p50 / p95 / p99 / p99.9 / max ms',
      'device read IOPS',
    ])
      expect(full, h).toContain(`<th>${h}</th>`)
    const p = input.summary.find((s) => s.label === 'deadline')!.processes[0]
    const five = [p.latencyMs.p50, p.latencyMs.p95, p.latencyMs.p99, p.latencyMs.p999, p.latencyMs.max]
    expect(full).toContain(`<td class="n">${five.map((x) => fmt(x.mean)).join(' / ')}</td>`)
  })

  it('holds the tables and the charts as inline SVG: throughput over time and a latency CDF per process', () => {
    const full = htmlReport(input)
    expect((full.match(/<svg /g) ?? []).length).toBe(3)
    expect((full.match(/<\/svg>/g) ?? []).length).toBe(3)
    expect(full).toContain('Read throughput')
    expect(full).toContain('Latency CDF: reader')
    expect((full.match(/<polyline /g) ?? []).length).toBe(9) // 3 schedulers × 3 charts
    expect(full).toContain('<h2>Repeated runs</h2>')
    expect(full).toContain('<h2>Environment</h2>')
  })

  it('colours each scheduler as the app does, whatever the order of its rows', () => {
    const full = htmlReport(input)
    // "cfq-v1" is a label variant of cfq: a shade of cfq's colour
    for (const [label, scheduler] of [
      ['deadline', 'deadline'],
      ['anticipatory', 'anticipatory'],
      ['cfq-v1', 'cfq-v'],
    ]) {
      const colour = schedulerColour(label, scheduler)
      expect(full).toContain(`background:${colour}"></span>${label}`)
      expect(full).toContain(`stroke="${colour}"`)
    }
    expect(schedulerColour('deadline', 'deadline')).toBe(SCHEDULER_COLOURS.deadline)
    const reversed = syntheticRuns({ 'cfq-v1': [27, 31, 24], deadline: [48.6, 47.1, 47.9] })
    const other = htmlReport(reportInput(JSON.parse(JSON.stringify(runOutput('r', reversed)))))
    expect(other).toContain(`background:${SCHEDULER_COLOURS.deadline}"></span>deadline`)
  })

  it('tells apart every variant of one scheduler past its shades, by a mark: the swatch’s shape, the line’s dash', () => {
    const labels = ['deadline', ...Array.from({ length: 6 }, (_, i) => `deadline-v${i + 1}`)]
    const many = syntheticRuns(Object.fromEntries(labels.map((l, i) => [l, [40 + i, 41 + i, 42 + i]])))
    for (const r of many) r.scheduler = 'deadline'
    const rows = reportInput(JSON.parse(JSON.stringify(runOutput('six variants', many))))
    const full = htmlReport(rows)
    const style = stylesFor(rows.summary.map((s) => ({ label: s.label, scheduler: s.scheduler })))
    const looks = labels.map((l) => style(l, 'deadline'))
    for (const x of looks) expect(shadesOf(SCHEDULER_COLOURS.deadline)).toContain(x.colour)
    expect(new Set(looks.map((x) => `${x.colour}/${x.mark}`)).size).toBe(labels.length)
    expect(looks.filter((x) => x.mark > 0)).toHaveLength(3)
    for (const [i, l] of labels.entries()) {
      const { colour, mark } = looks[i]
      const swatch = `background:${colour}${mark ? `;clip-path:${MARKS[mark].clip}` : ''}"></span>${l}<`
      expect(full, l).toContain(swatch)
      // its line in each chart: dashed for a mark, solid else
      const lines =
        full.match(new RegExp(`<polyline [^>]*stroke="${colour}"[^>]*><title>${l}</title>`, 'g')) ?? []
      expect(lines.length, l).toBeGreaterThanOrEqual(2)
      for (const line of lines)
        if (mark) expect(line).toContain(`stroke-dasharray="${MARKS[mark].dash.join(' ')}"`)
        else expect(line).not.toContain('stroke-dasharray')
    }
  })

  it('says repetitions were identical instead of printing ± 0', () => {
    const same = syntheticRuns({ noop: [19.8, 19.8, 19.8], deadline: [19.8, 19.8, 19.8] })
    const doc = htmlReport(reportInput(JSON.parse(JSON.stringify(runOutput('deterministic', same)))))
    expect(doc).toContain('Identical repetitions (deterministic workload)')
    expect(doc).not.toMatch(/\d ± 0\b/)
    expect(mailingListText(reportInput(JSON.parse(JSON.stringify(runOutput('d', same)))))).toContain(
      'Identical repetitions (deterministic workload)',
    )
    // the varying ones keep their intervals, at the interval's digits
    expect(htmlReport(input)).toMatch(/\d ± \d/)
    expect(htmlReport(input)).not.toContain('Identical repetitions')
  })
})

describe('SVG charts', () => {
  it('draws round ticks and survives empty or degenerate data', () => {
    expect(ticks(0, 1)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1])
    expect(ticks(0, 47)).toEqual([0, 10, 20, 30, 40])
    const empty = lineChart({
      title: 't',
      xLabel: 'x',
      yLabel: 'y',
      series: [{ name: 's', colour: '#000', points: [] }],
    })
    expect(empty).toContain('no data')
    const flat = lineChart({
      title: 't',
      xLabel: 'x',
      yLabel: 'y',
      series: [{ name: 's', colour: '#000', points: [[1, 0]] }],
    })
    expect(flat).not.toContain('NaN')
  })
})
