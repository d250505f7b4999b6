// The HTML report's order (charts first, the spec last and folded) and colours (the app's), its
// charts' details (short runs, round log ticks, whole legend names); and the text report's account
// of where each run came from and of how to repeat the experiment.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { binPoints } from '../../src/shared/metrics/bin-points'
import { htmlReport } from '../../src/shared/report/html'
import { reportInput } from '../../src/shared/report/input'
import { lineChart, logTicks, ticks } from '../../src/shared/report/svg-chart'
import { mailingListText } from '../../src/shared/report/text'
import { DARK, LIGHT } from '../../src/shared/report/theme'
import { validateSpec } from '../../src/shared/experiment/validate'
import { syntheticRuns } from './runs'

const spec = {
  name: 'flagship-like',
  device: { preset: 'hdd-2003-ide', overrides: { cacheMiB: 4 } },
  host: { preset: 'linux-2003' },
  workload: {
    files: [{ name: 'foo', size: '512M' }],
    processes: [
      { name: 'writer', type: 'dd', params: { op: 'write', file: 'foo', bs: '1M', count: 512, loop: true } },
      { name: 'reader', type: 'cat', params: { file: '100m-file', size: '100M' }, startMs: 10000 },
    ],
    stop: { processes: ['reader'], maxSeconds: 900 },
  },
  schedulers: ['deadline', { name: 'cfq', label: 'cfq-v1', tunables: { version: 'v1' } }],
  repetitions: 2,
  seed: 1,
}
const runs = syntheticRuns({ deadline: [48.6, 47.1], 'cfq-v1': [27, 31] })
runs.filter((r) => r.label === 'cfq-v1').forEach((r) => (r.scheduler = 'cfq'))
runs.forEach((r) => (r.device = 'hdd-2003-ide'))
const experiment = { schema: 'iosched-lab/experiment@1', name: spec.name, spec, runs, summary: [] }
const input = reportInput(JSON.parse(JSON.stringify(experiment)))

describe('the HTML report’s layout', () => {
  const html = htmlReport(input)

  it('puts the charts before the tables and the spec last, folded in a closed <details>', () => {
    const at = (s: string) => {
      const i = html.indexOf(s)
      expect(i, s).toBeGreaterThan(-1)
      return i
    }
    const lastChart = html.lastIndexOf('</svg>')
    expect(at('<svg ')).toBeLessThan(at('<table>'))
    expect(lastChart).toBeLessThan(at('<h2>Results</h2>'))
    expect(lastChart).toBeLessThan(at('<h2>Environment</h2>'))
    expect(at('<h2>Environment</h2>')).toBeLessThan(at('<h2>Spec</h2>'))
    const details =
      /<details id="spec"(?<attrs>[^>]*)><summary>[^<]+<\/summary>\s*<pre>([^<]*)<\/pre><\/details>/.exec(
        html,
      )
    expect(details, 'the spec inside <details>').not.toBeNull()
    expect(details!.groups!.attrs).not.toContain('open')
    expect(details![2]).toContain('&quot;version&quot;: &quot;v1&quot;')
    expect(html.indexOf('</details>')).toBeGreaterThan(html.lastIndexOf('</table>'))
  })

  it('is in the app’s colours, light or dark as the reader’s system is', () => {
    expect(html).toContain(`--bg: ${LIGHT.bg};`)
    expect(html).toContain(`--accent: ${LIGHT.accent};`)
    const dark = /@media \(prefers-color-scheme: dark\) \{ :root \{([^}]*)\} \}/.exec(html)
    expect(dark).not.toBeNull()
    expect(dark![1]).toContain(`--panel: ${DARK.panel};`)
    expect(html).toContain('svg .bg { fill: var(--panel); }')
    expect(html).toContain('class="bg"')
  })

  it('keeps the theme’s colours the app’s: the same as styles.css, light and dark', () => {
    const css = readFileSync(join(import.meta.dirname, '../../src/renderer/src/styles.css'), 'utf8')
    const block = (selector: string) =>
      css.slice(css.indexOf(selector), css.indexOf('}', css.indexOf(selector)))
    for (const [selector, theme] of [
      [':root {', LIGHT],
      [":root[data-theme='dark'] {", DARK],
    ] as const)
      for (const [k, v] of Object.entries(theme))
        expect(block(selector), `${selector} --${k}`).toContain(`--${k}: ${v};`)
  })
})

describe('the report’s charts', () => {
  it('draw a run shorter than one time bin as a line to its end, not a point at zero', () => {
    const ts = { ...runs[0].timeSeries, intervalMs: 100, tMs: [0], readMBps: [70], writeMBps: [0] }
    expect(binPoints(ts, ts.readMBps, 0.016)).toEqual([
      [0, 70],
      [0.016, 70],
    ])
    // a longer run: the last bin ends where the run does
    const long = { ...ts, tMs: [0, 100, 200], readMBps: [1, 2, 3] }
    expect(binPoints(long, long.readMBps, 0.25).at(-1)).toEqual([0.25, 3])
    const svg = lineChart({
      title: 't',
      xLabel: 's',
      yLabel: 'MB/s',
      series: [{ name: 'noop', colour: '#000', points: binPoints(ts, ts.readMBps, 0.016) }],
    })
    // the x axis from 0 to 0.016 s, not −0.5 … 0.5
    expect(svg).not.toMatch(/>-0\.\d+</)
    expect(svg).toContain('>0.015<')
    // one line across the whole plot, from its left edge (x = 0) to its right (the run's end)
    expect(svg).toMatch(/<polyline [^>]*points="64,41\.6 560,41\.6"/)
  })

  it('put runs of very different lengths on per cent of each run, so a 312 s one does not squash 30 s ones', () => {
    const times: Record<string, number[]> = { 'bfq-long': [312] }
    for (let i = 1; i <= 7; i++) times[`noop-${'abcdefg'[i - 1]}`] = [30]
    const mixed = syntheticRuns(times)
    const doc = { schema: 'iosched-lab/experiment@1', name: 'mixed', spec: null, runs: mixed, summary: [] }
    const out = htmlReport(reportInput(JSON.parse(JSON.stringify(doc))))
    const charts = out.match(/<svg[\s\S]*?<\/svg>/g)!.filter((x) => x.includes('vmstat'))
    expect(charts).toHaveLength(2)
    for (const svg of charts) {
      expect(svg).toContain('time (% of each run)')
      expect(svg).toContain('bfq-long, 312 s')
      expect(svg).toContain('noop-a, 30 s')
      // every line ends at the plot's right edge (100 %), the 30 s runs' as the 312 s run's
      const ends = [...svg.matchAll(/<polyline [^>]*points="([^"]+)"/g)].map((m) =>
        Number(m[1].split(' ').at(-1)!.split(',')[0]),
      )
      expect(ends).toHaveLength(8)
      expect(new Set(ends).size).toBe(1)
    }
    expect(out).toContain('The runs last from 30 to 312 s: time in per cent of each run')
    // runs of like lengths keep one axis in seconds
    const like = htmlReport(input)
    expect(like).toContain('time (s)')
    expect(like).not.toContain('% of each run')
  })

  it('keep round ticks when a bound is a rounding error past a round value', () => {
    const pct = 41.468649542 * (100 / 41.468649542) // 100.00000000000001: a run's end in per cent
    expect(ticks(0, pct)).toEqual([0, 20, 40, 60, 80, 100])
    expect(ticks(0, 100)).toEqual([0, 20, 40, 60, 80, 100])
    expect(ticks(0, 101)).toEqual([0, 50, 100])
  })

  it('label a log axis within one decade with round ticks, not its unrounded bound', () => {
    const t = logTicks(Math.log10(0.103423), Math.log10(0.9))
    expect(t).toEqual([0.2, 0.5])
    expect(logTicks(Math.log10(0.103423), Math.log10(0.15)).every((v) => String(v).length <= 5)).toBe(true)
    expect(logTicks(-1, 3)).toEqual([0.1, 1, 10, 100, 1000])
    expect(logTicks(Math.log10(0.3), Math.log10(40))).toEqual([0.5, 1, 2, 5, 10, 20])
  })

  it('show legend names whole (up to 36 characters), widening the chart rather than cutting them', () => {
    const name = 'deadline (fifo_batch=1, writes_starved=4)' // 41
    const short = 'bfq (slice_idle=0) (real)' // 25: cut at 20 before
    const svg = lineChart({
      title: 't',
      xLabel: 'x',
      yLabel: 'y',
      series: [
        {
          name: short,
          colour: '#000',
          points: [
            [0, 1],
            [1, 2],
          ],
        },
        {
          name,
          colour: '#111',
          points: [
            [0, 1],
            [1, 2],
          ],
        },
      ],
    })
    expect(svg).toContain(`>${short}<`)
    expect(svg).toContain(`>${name.slice(0, 35)}…<`)
    const width = Number(/ width="(\d+)"/.exec(svg)![1])
    expect(width).toBeGreaterThan(720)
  })
})

describe('the text report', () => {
  const text = mailingListText(input)

  it('says where each scheduler’s runs came from: simulated, real or imported', () => {
    const real = syntheticRuns({ deadline: [40] })
    real[0].source = 'real'
    real[0].device = 'sdb'
    const imported = syntheticRuns({ noop: [30] })
    imported[0].source = 'real'
    imported[0].imported = { tool: 'fio', version: '3.33', file: 'noop.json' }
    const mixed = mailingListText(reportInput(JSON.parse(JSON.stringify([...runs, ...real, ...imported]))))
    const block = mixed.split('\n\n').find((b) => b.startsWith('runs:'))!
    expect(block).toMatch(/^deadline\s+simulated \(hdd-2003-ide\)$/m)
    expect(block).toMatch(/^cfq-v1\s+simulated \(hdd-2003-ide\)$/m)
    expect(block).toMatch(/^deadline \(real\)\s+real \(sdb\)$/m)
    expect(block).toMatch(/^noop \(real\)\s+imported \(fio 3\.33, noop\.json\)$/m)
  })

  it('ends with the workload and the tunables, enough to repeat the experiment', () => {
    const workload = text.split('\n\n').find((b) => b.startsWith('workload:'))!
    expect(workload).toContain('files: foo 512M')
    expect(workload).toContain('writer: dd op=write file=foo bs=1M count=512 loop=true')
    expect(workload).toContain('reader: cat file=100m-file size=100M; starts at 10000 ms')
    expect(workload).toContain('stops: when reader finishes, or after 900 s at the latest')
    const tunables = text.split('\n\n').find((b) => b.startsWith('schedulers and tunables:'))!
    expect(tunables).toContain('deadline: deadline, defaults')
    expect(tunables).toContain('cfq-v1: cfq, version=v1')
    expect(tunables).toContain('device hdd-2003-ide: cacheMiB=4')
    for (const l of text.split('\n')) expect(l.length, l).toBeLessThanOrEqual(80)
  })

  it('tells a resolved spec (what results hold) as it was written: only what differs from the defaults', () => {
    const written = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../examples/streaming-read-under-write-2003.json'), 'utf8'),
    )
    written.schedulers[1] = { name: 'deadline', tunables: { fifo_batch: 8 } }
    written.device.overrides = { queueDepth: 4 }
    const v = validateSpec(written)
    if (!v.ok) throw new Error(JSON.stringify(v.issues))
    const doc = { schema: 'iosched-lab/experiment@1', name: 'resolved', spec: v.spec, runs, summary: [] }
    const out = mailingListText(reportInput(JSON.parse(JSON.stringify(doc))))
    expect(out).toContain('  files: foo 512M, 100m-file 100M')
    expect(out).toContain('  writer: dd op=write file=foo bs=1M count=512 loop=true\n')
    // cat's size is 100M by default: left out, as the example leaves it out
    expect(out).toContain('  reader: cat file=100m-file; starts at 10000 ms\n')
    expect(out).toContain('  stops: when reader finishes, or after 900 s at the latest')
    expect(out).toContain('  noop: noop, defaults\n')
    expect(out).toContain('  deadline: deadline, fifo_batch=8\n')
    expect(out).toContain('  cfq-v1: cfq, version=v1\n')
    expect(out).toContain('  device hdd-2003-ide: queueDepth=4')
    expect(out).not.toContain('host linux-2003:')
  })

  it('says so when the document holds runs but no spec', () => {
    const bare = mailingListText(reportInput(JSON.parse(JSON.stringify(runs))))
    expect(bare).toContain('workload: not recorded in this document')
    expect(bare).toMatch(/schedulers and tunables:\n {2}deadline: deadline, /)
  })
})
