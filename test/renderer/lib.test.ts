import { describe, expect, it } from 'vitest'
import {
  coloursFor,
  entryLabel,
  pickStyles,
  setStyles,
  stylesOf,
  swatchStyle,
} from '../../src/renderer/src/lib/colours'
import { MARKS } from '../../src/shared/report/marks'
import { num } from '../../src/renderer/src/lib/format'
import { bestIndex, bestRows, tableMetrics } from '../../src/renderer/src/lib/metrics'
import {
  normalizeDoc,
  parentPath,
  parseTyped,
  setPath,
  uniqueLabel,
} from '../../src/renderer/src/lib/spec-doc'
import type { LabelSummary } from '../../src/shared/experiment/compare'
import { summarize } from '../../src/shared/metrics/stats'
import { SCHEDULER_COLOURS, schedulerColour } from '../../src/shared/report/palette'

describe('renderer helpers', () => {
  it('walks a spec path up to the field the form has for it', () => {
    const up: string[] = []
    for (let p: string | null = 'workload.processes[1].params.bs'; p; p = parentPath(p)) up.push(p)
    expect(up).toEqual([
      'workload.processes[1].params.bs',
      'workload.processes[1].params',
      'workload.processes[1]',
      'workload.processes',
      'workload',
    ])
    expect(parentPath('schedulers[0]')).toBe('schedulers')
    expect(parentPath('name')).toBeNull()
  })

  it('edits the spec document by issue path, dropping emptied objects', () => {
    const d = normalizeDoc({ device: { preset: 'x' }, schedulers: ['noop'] })
    expect(d.workload.processes).toEqual([])
    setPath(d, 'device.overrides.rpm', 5400)
    expect(d.device).toEqual({ preset: 'x', overrides: { rpm: 5400 } })
    setPath(d, 'device.overrides.rpm', undefined)
    expect(d.device).toEqual({ preset: 'x' })
    setPath(d, 'schedulers[0].tunables.q', 1)
    expect(d.schedulers[0]).toEqual({ name: 'noop', tunables: { q: 1 } })
    setPath(d, 'host.overrides.memoryMiB', undefined)
    expect(d.host).toBeUndefined()
  })

  it('reads typed text as the spec takes it', () => {
    expect(parseTyped('42', 'int')).toBe(42)
    expect(parseTyped('-3', 'int')).toBe(-3)
    expect(parseTyped('4x', 'int')).toBe('4x')
    expect(parseTyped('1M', 'size')).toBe('1M')
    expect(parseTyped('4096', 'size')).toBe(4096)
    expect(parseTyped(' ', 'int')).toBeUndefined()
    expect(uniqueLabel(['deadline', 'deadline-2'], 'deadline')).toBe('deadline-3')
  })

  it('finds the best row per column, in the metric’s direction', () => {
    const row = (label: string, MBps: number, seconds: number) =>
      ({
        label,
        repetitions: 1,
        seconds: summarize([seconds]),
        processes: [
          {
            name: 'r',
            MBps: summarize([MBps]),
            seconds: summarize([seconds]),
            latencyMs: { p99: summarize([1]) },
          },
        ],
        device: {},
      }) as unknown as LabelSummary
    const rows = [row('a', 10, 5), row('b', 30, 9)]
    const pick = (ms: ReturnType<typeof tableMetrics>) =>
      ['MBps', 'seconds'].map((c) => ms.find((m) => m.id === `r:${c}`)!)
    const [mbps, time] = pick(tableMetrics(['r']))
    expect(bestIndex(mbps, rows)).toBe(1)
    expect(bestIndex(time, rows)).toBe(0)
    expect(bestIndex(mbps, rows.slice(0, 1))).toBe(-1)
    // a time-based job ran for the time it was given: its time has no best, its throughput has
    const [mbpsT, timeT] = pick(tableMetrics(['r'], new Map([['r', 'time-based']])))
    expect(timeT.better).toBeNull()
    expect(bestIndex(timeT, rows)).toBe(-1)
    expect(bestIndex(mbpsT, rows)).toBe(1)
    // ties: every row at the best value, and none when all rows are alike
    const tied = [row('a', 30, 5), row('b', 30, 5), row('c', 10, 9)]
    expect([...bestRows(mbps, tied)]).toEqual([0, 1])
    expect([...bestRows(time, tied)]).toEqual([0, 1])
    expect([...bestRows(mbps, [row('a', 30, 5), row('b', 30, 5)])]).toEqual([])
    expect([...bestRows(mbps, rows)]).toEqual([1])
    expect([...bestRows(timeT, rows)]).toEqual([])
    // values the table shows alike (294 and 294) are a tie, not one of them best
    expect([...bestRows(mbps, [row('a', 294.3, 5), row('b', 293.8, 5), row('c', 250, 5)])]).toEqual([0, 1])
    expect([...bestRows(mbps, [row('a', 294.3, 5), row('b', 293.8, 5)])]).toEqual([])
  })

  it('formats numbers to three figures', () => {
    expect(num(22.94)).toBe('22.9')
    expect(num(308.4)).toBe('308')
    expect(num(12345.6)).toBe('12,346')
    expect(num(NaN)).toBe('–')
  })
})

describe('colours of rows, series and run sets', () => {
  it('colours a shown label by its entry’s scheduler, a real run and a variant as shades of it', () => {
    const colour = coloursFor([
      { label: 'fast', name: 'deadline' },
      { label: 'noop', name: 'noop' },
    ])
    expect(colour('noop')).toBe(SCHEDULER_COLOURS.noop)
    // "fast" names no scheduler: its entry says deadline
    expect(colour('fast')).toBe(schedulerColour('fast', 'deadline'))
    expect(colour('fast')).not.toBe(SCHEDULER_COLOURS.deadline)
    expect(colour('noop (real)')).toBe(schedulerColour('noop (real)', 'noop'))
    expect(colour('noop (real)')).not.toBe(SCHEDULER_COLOURS.noop)
    expect(entryLabel('noop (real)')).toBe('noop')
    // a library set as its comparison shows it
    const sets = [
      { label: 'noop', scheduler: 'noop', kind: 'simulated' },
      { label: 'noop', scheduler: 'noop', kind: 'imported' },
    ]
    const setColour = (f: (typeof sets)[number]) => setStyles(sets)(f).colour
    expect(setColour(sets[0])).toBe(SCHEDULER_COLOURS.noop)
    expect(setColour(sets[1])).toBe(colour('noop (real)'))
  })

  it('gives variants of one scheduler shown together shades of their own, in the library too', () => {
    // three variants whose labels ask for the same shade of deadline's
    const want = schedulerColour('deadline-0')
    const same: string[] = []
    for (let i = 0; same.length < 3; i++)
      if (schedulerColour(`deadline-${i}`) === want) same.push(`deadline-${i}`)
    const colour = coloursFor(same.map((label) => ({ label, name: 'deadline' })))
    expect(new Set(same.map(colour)).size).toBe(3)
    // a library comparison of the same sets shows them as the results page does
    const setStyle = setStyles(same.map((label) => ({ label, scheduler: 'deadline', kind: 'simulated' })))
    for (const label of same)
      expect(setStyle({ label, scheduler: 'deadline', kind: 'simulated' }).colour).toBe(colour(label))
  })

  it('colours picked run sets as their sessions’ results pages do, and keeps two sessions’ variants apart', () => {
    // two variants of deadline that ask for one shade: on their results page the second takes the next
    const want = schedulerColour('deadline-0')
    const same: string[] = []
    for (let i = 1; same.length < 2; i++)
      if (schedulerColour(`deadline-${i}`) === want) same.push(`deadline-${i}`)
    const [first, second] = same.sort()
    const sim = (label: string) => ({ label, scheduler: 'deadline', kind: 'simulated' })
    const session = ['deadline', first, second].map(sim)
    const page = coloursFor(session.map((s) => ({ label: s.label, name: 'deadline' })))
    expect(page(second)).not.toBe(page(first))
    // the second picked alone (beside deadline): its page's shade, not the one it asks for
    const a = pickStyles([
      { path: 'a', facts: sim('deadline'), siblings: session },
      { path: 'a', facts: sim(second), siblings: session },
    ])
    expect(a('a', sim(second))).toEqual({ colour: page(second), mark: 0 })
    expect(a('a', sim('deadline'))).toEqual({ colour: SCHEDULER_COLOURS.deadline, mark: 0 })
    // from two sessions, variants on one shade: the later picked moves to a free shade of deadline's
    const b = pickStyles([
      { path: 'a', facts: sim(first), siblings: [sim(first)] },
      { path: 'b', facts: sim(second), siblings: [sim(second)] },
    ])
    expect(b('b', sim(second)).colour).not.toBe(b('a', sim(first)).colour)
    // the same label from two sessions keeps one colour, as on both pages
    const c = pickStyles([
      { path: 'a', facts: sim(first), siblings: [sim(first)] },
      { path: 'b', facts: sim(first), siblings: [sim(first)] },
    ])
    expect(c('b', sim(first))).toEqual(c('a', sim(first)))
  })

  it('marks variants past a scheduler’s shades, on the results page and across sessions in the library', () => {
    const labels = ['deadline', ...Array.from({ length: 7 }, (_, i) => `deadline-v${i + 1}`)]
    const style = stylesOf(labels.map((label) => ({ label, name: 'deadline' })))
    const looks = labels.map((l) => style(l))
    expect(new Set(looks.map((x) => `${x.colour}/${x.mark}`)).size).toBe(labels.length)
    expect(looks.filter((x) => x.mark > 0)).toHaveLength(4)
    // a marked row's swatch is cut to its marker's shape; a plain one stays a square
    const marked = looks.find((x) => x.mark > 0)!
    expect(swatchStyle(marked)).toEqual({
      background: marked.colour,
      clipPath: MARKS[marked.mark].clip,
      borderRadius: '0',
    })
    expect(swatchStyle(looks[0])).toEqual({ background: SCHEDULER_COLOURS.deadline })
    // the same variants from eight sessions, one a session: all eight look different
    const sim = (label: string) => ({ label, scheduler: 'deadline', kind: 'simulated' })
    const picks = labels.map((l, i) => ({ path: `s${i}`, facts: sim(l), siblings: [sim(l)] }))
    const pick = pickStyles(picks)
    const shown = picks.map((p) => pick(p.path, p.facts))
    expect(new Set(shown.map((x) => `${x.colour}/${x.mark}`)).size).toBe(labels.length)
  })
})
