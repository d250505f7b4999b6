import { describe, expect, it } from 'vitest'
import { listGallery, loadGalleryEntry, reproduce } from '../../src/main/services/gallery-entries'
import type { ReproduceResult } from '../../src/main/services/gallery-entries'
import { judge } from '../../src/shared/gallery/claims'
import type { GalleryRuns } from '../../src/shared/gallery/claims'
import type { Claim, RunRef } from '../../src/shared/gallery/types'
import type { RunResult } from '../../src/shared/experiment/result'
import type { ProcessStages } from '../../src/shared/metrics/why'
import { num } from '../../src/shared/util/people-numbers'
import { MECHANISM_NAME } from '../../src/shared/report/why-figures'
import { reproduceReport } from '../../src/cli/reproduce-text'

describe('the gallery', () => {
  it('ships the entries, each with valid specs and a page', () => {
    const names = listGallery().map((e) => e.name)
    // in the order the issue lists them: the published measurements A, B, C first
    expect(names).toEqual([
      'streaming-read-under-write-2003',
      'row-vs-cfq-emmc-2012',
      'dd-under-cpu-load-1997',
      'nvme-randread-under-write-flood',
      'interactive-latency',
      'textbook-disk-scheduling',
      'contest-mem-load-2003',
      'fsync-journal-idling-2019',
      'bfq-startup-nvme-2020',
    ])
    for (const n of names) expect(loadGalleryEntry(n).page).toMatch(/^# /)
  })

  it('refuses an unknown entry with the list of known ones', () => {
    expect(() => loadGalleryEntry('nope')).toThrow(
      /no gallery entry "nope"; known: bfq-startup-nvme-2020, contest-mem-load-2003, dd-under-cpu-load-1997, fsync-journal-idling-2019, interactive-latency/,
    )
  })
})

describe('claims', () => {
  const run = (label: string, seconds: number, MBps: number): RunResult =>
    ({
      label,
      processes: [{ name: 'p', seconds, MBps, bytes: 1, ops: 10 }],
      totals: { readMBps: MBps },
    }) as unknown as RunResult
  const runs: GalleryRuns = { v: [{ runs: [run('a', 10, 5), run('b', 2, 20), run('c', 6, 12)] }] }
  const ref = (label: string, metric: 'seconds' | 'MBps') => ({ variant: 'v', label, process: 'p', metric })
  const c = (claim: Record<string, unknown>) => judge([{ id: 'x', text: 't', ...claim } as Claim], runs)[0]

  it('judges ratios, ranges, betweens and closeness, with the numbers in the detail', () => {
    expect(c({ kind: 'ratio', a: ref('a', 'seconds'), b: ref('b', 'seconds'), min: 5 })).toMatchObject({
      pass: true,
      detail: '10.00 / 2.00 = 5.00, expected ≥ 5',
    })
    expect(c({ kind: 'ratio', a: ref('a', 'seconds'), b: ref('b', 'seconds'), min: 6 }).pass).toBe(false)
    expect(c({ kind: 'range', x: ref('c', 'MBps'), min: 10, max: 15 }).pass).toBe(true)
    expect(
      c({ kind: 'between', x: ref('c', 'seconds'), lo: ref('a', 'seconds'), hi: ref('b', 'seconds') }).pass,
    ).toBe(true)
    expect(
      c({ kind: 'between', x: ref('a', 'seconds'), lo: ref('c', 'seconds'), hi: ref('b', 'seconds') }).pass,
    ).toBe(false)
    expect(c({ kind: 'close', a: ref('c', 'MBps'), b: ref('b', 'MBps'), tolerance: 0.1 }).pass).toBe(false)
  })

  it('groups the thousands of large numbers in the detail', () => {
    const big: GalleryRuns = { v: [{ runs: [run('a', 2299386, 1), run('b', 7515591, 1)] }] }
    const [v] = judge(
      [{ id: 'x', text: 't', kind: 'ratio', a: ref('a', 'seconds'), b: ref('b', 'seconds'), max: 0.67 }],
      big,
    )
    expect(v.detail).toBe('2,299,386 / 7,515,591 = 0.306, expected ≤ 0.67')
  })

  it('fails a claim whose numbers are missing, saying which', () => {
    expect(c({ kind: 'range', x: ref('zz', 'seconds'), min: 1 })).toMatchObject({
      pass: false,
      detail: 'v/zz p seconds: no run labelled "zz"',
    })
  })
})

/** A run of a reproduction, as an entry's `explain` refers to it. */
const runOf = (r: ReproduceResult, ref: RunRef): RunResult => {
  const v = r.variants.find((x) => x.id === ref.variant)!
  const at =
    ref.value === undefined ? v.results[0] : v.results.find((x) => String(x.value) === String(ref.value))!
  return at.experiment.runs.find((x) => x.label === ref.label)!
}
const stagesOf = (run: RunResult, process: string): ProcessStages =>
  run.why!.processes.find((p) => p.process === process)!

/**
 * Entries whose published point is a mechanism the explanation must name (issue 14): in words, in
 * its sentence (not only as the label beside it), with the figures of the runs that show it.
 */
const NAMED: Record<string, (worse: RunResult, better: RunResult) => (string | RegExp)[]> = {
  'streaming-read-under-write-2003': (w, b) => [
    /: deceptive idleness\.$/,
    `deadline moved on to other processes ${stagesOf(w, 'reader').deceived!.switches} times when the reader looked idle`,
    `(${stagesOf(b, 'reader').deceived!.switches} such switches under anticipatory)`,
  ],
  'row-vs-cfq-emmc-2012': (w, b) => [
    "lmdd-parallel/row served its reads before the flush's writes (read-over-write priority)",
    `letting the writes in between its reads ${stagesOf(b, 'read').batches} times (runs of ${num(stagesOf(b, 'read').requests / stagesOf(b, 'read').batches)} reads)`,
    `lmdd-parallel/cfq let them in ${stagesOf(w, 'read').batches} times`,
  ],
  'dd-under-cpu-load-1997': (w, b) => [
    'the CPU scheduler did not preempt the running task on its wake-up',
    `it waited ${num(w.processes.find((p) => p.name === 'dd')!.time!.runnable)} s in all for a CPU`,
    `(${num(b.processes.find((p) => p.name === 'dd')!.time!.runnable)} s under hog-preemptive[64k]/noop)`,
  ],
}
const EXPLAINED = Object.keys(NAMED)
/** The mechanism's label beside the explanation (the app, `run`, the reports, `reproduce`): the published one's. */
const LABEL: Record<string, string> = {
  'streaming-read-under-write-2003': 'deceptive idleness',
  'row-vs-cfq-emmc-2012': 'read-over-write priority',
  'dd-under-cpu-load-1997': 'CPU wake-up without preemption',
}

describe.each([
  'streaming-read-under-write-2003',
  'row-vs-cfq-emmc-2012',
  'dd-under-cpu-load-1997',
  'nvme-randread-under-write-flood',
  'interactive-latency',
  'textbook-disk-scheduling',
  'contest-mem-load-2003',
  'fsync-journal-idling-2019',
  'bfq-startup-nvme-2020',
])('reproducing %s', (name) => {
  it('meets every claim of the published measurement', async () => {
    const r = await reproduce(loadGalleryEntry(name), {}, { jobs: 0 })
    const failed = r.claims.filter((x) => !x.pass).map((x) => `${x.id}: ${x.detail}`)
    expect(failed).toEqual([])
    expect(r.pass).toBe(true)
    expect(r.published.every((p) => p.simulated !== null)).toBe(true)
    // the explanation, computed from the simulated figures, names what the publication is about
    const { entry } = loadGalleryEntry(name)
    if (EXPLAINED.includes(name)) expect(entry.explain).toBeDefined()
    if (entry.explain) {
      const e = r.explanation!
      expect({ mechanism: e.mechanism, text: e.text }).toMatchObject({ mechanism: entry.explain.mechanism })
      expect(e.matches).toBe(true)
      // every figure it quotes comes from the runs: the process's own time under both
      expect(e.text).toContain(`the ${entry.explain.process} took`)
      // an entry of one variant names its runs as its page does, by label ("deadline", not
      // "main/deadline"); one of several says which variant
      const one = entry.variants.length === 1 && entry.variants[0].sweep === undefined
      const worse = entry.explain.worse
      expect(e.worst).toBe(
        one
          ? worse.label
          : `${worse.variant}${worse.value !== undefined ? `[${worse.value}]` : ''}/${worse.label}`,
      )
      if (one) expect(e.text).not.toContain(`${worse.variant}/`)
    }
    const named = NAMED[name]?.(runOf(r, entry.explain!.worse), runOf(r, entry.explain!.better)) ?? []
    for (const x of named)
      if (typeof x === 'string') expect(r.explanation!.text).toContain(x)
      else expect(r.explanation!.text).toMatch(x)
    if (LABEL[name]) {
      expect(MECHANISM_NAME[r.explanation!.mechanism]).toBe(LABEL[name])
      expect(reproduceReport(r)).toContain(`Why (names the published mechanism, ${LABEL[name]}):`)
    }
  }, 300_000)
})
