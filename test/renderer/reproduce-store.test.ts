// The reproduce store (Start → Reproduce): the entry shown at once, events that come before the
// lab's answer, the verdict, cancel, a refusal, and a reproduction recovered with runStatus after
// the event channel dropped.
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import { keptVerdict, useReproduce } from '../../src/renderer/src/stores/reproduce'
import type { ReproduceStarted } from '../../src/shared/api/gallery-contract'
import type { LabEvent } from '../../src/shared/api/lab-events'
import { entryView, figureRow } from '../../src/shared/gallery/report'
import type { ReproduceReport } from '../../src/shared/gallery/report'
import type { GalleryEntry } from '../../src/shared/gallery/types'
import { fakeLab } from './fake-lab'

const tick = () => new Promise((r) => setTimeout(r, 0))
const ref = { variant: 'a', label: 'noop', metric: 'seconds' as const }
const entry: GalleryEntry = {
  name: 'e',
  order: 1,
  title: 'An entry',
  source: 'a paper',
  about: 'e.md',
  variants: [{ id: 'a', title: 'A', spec: {} }],
  published: [{ ...ref, value_published: 2, unit: 's' }],
  claims: [{ id: 'C1', text: 'quick', kind: 'range', x: ref, max: 3 }],
}
const started: ReproduceStarted = { runId: 'r1', entry: entryView(entry, '# E') }
const report: ReproduceReport = {
  name: 'e',
  title: 'An entry',
  source: 'a paper',
  figures: [figureRow(ref, 2, 2.5, 's')],
  claims: [{ id: 'C1', text: 'quick', pass: true, detail: '2.50, expected ≤ 3' }],
  holding: 1,
  pass: true,
  failures: [],
  wallSeconds: 0.5,
}
const progress: LabEvent = {
  type: 'reproduce:progress',
  runId: 'r1',
  variant: 'a',
  value: null,
  k: 1,
  n: 1,
  fraction: 0.5,
}

describe('the reproduce store', () => {
  beforeEach(() => setActivePinia(createPinia()))

  it('shows the entry, takes events that came before the answer, then the verdict', async () => {
    const lab: ReturnType<typeof fakeLab> = fakeLab({
      startReproduce: () => {
        lab.emit(progress) // the lab is quick: progress before startReproduce answers
        return started
      },
    })
    const r = useReproduce()
    await r.start('e')
    expect(lab.calls.map((c) => c.input)).toEqual([{ name: 'e' }])
    expect(r.status).toBe('running')
    expect(r.entry?.title).toBe('An entry')
    expect(r.progress).toMatchObject({ k: 1, n: 1, fraction: 0.5 })
    lab.emit({ type: 'reproduce:done', runId: 'other', report: { ...report, pass: false } })
    expect(r.report).toBeNull()
    lab.emit({ type: 'reproduce:done', runId: 'r1', report })
    expect(r.status).toBe('done')
    expect(r.report?.figures[0].ratio).toBe(1.25)
  })

  it('cancels through cancelRun and says so', async () => {
    const lab = fakeLab({ startReproduce: () => started, cancelRun: () => true })
    const r = useReproduce()
    await r.start('e')
    await r.cancel()
    expect(lab.calls.at(-1)).toEqual({ method: 'cancelRun', input: { runId: 'r1' } })
    lab.emit({ type: 'reproduce:failed', runId: 'r1', cancelled: true, message: 'cancelled' })
    expect(r.status).toBe('cancelled')
    expect(r.message).toMatch(/^Cancelled/)
    expect(r.busy).toBe(false)
  })

  it('shows the lab’s refusal: an unknown entry, with the known ones', async () => {
    fakeLab({ startReproduce: () => ({ problems: ['no gallery entry "x"; known: e'] }) })
    const r = useReproduce()
    await r.start('x')
    expect(r.status).toBe('failed')
    expect(r.message).toBe('no gallery entry "x"; known: e')
  })

  it('recovers after a dropped event channel: the verdict from runStatus', async () => {
    const lab = fakeLab({
      startReproduce: () => started,
      runStatus: () => ({
        runId: 'r1',
        state: 'done',
        started: null,
        events: [progress, { type: 'reproduce:done', runId: 'r1', report }],
      }),
    })
    const r = useReproduce()
    await r.start('e')
    lab.reconnect()
    await tick()
    expect(r.status).toBe('done')
    expect(r.report?.holding).toBe(1)
  })
})

describe('the kept verdict (a reload of the tab)', () => {
  it('reads back what the store kept, and nothing else', () => {
    const kept = keptVerdict(JSON.stringify({ entry: started.entry, report }))
    expect(kept).toEqual({ entry: started.entry, report })
    expect(keptVerdict(null)).toBeNull()
    expect(keptVerdict('not json')).toBeNull()
    expect(keptVerdict(JSON.stringify({ entry: started.entry }))).toBeNull()
    // a verdict of another entry than the one kept beside it
    expect(keptVerdict(JSON.stringify({ entry: started.entry, report: { ...report, name: 'x' } }))).toBeNull()
    expect(keptVerdict(JSON.stringify({ entry: started.entry, report: { ...report, claims: 3 } }))).toBeNull()
  })
})
