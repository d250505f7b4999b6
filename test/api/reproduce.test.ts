// Reproducing a gallery entry through the lab service (startReproduce): progress, the verdict —
// the same figures and claims as `iosched-lab reproduce` — cancel, runStatus, and the refusals.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { LAB_INPUTS } from '../../src/shared/api/schemas'
import type { ReproduceStarted } from '../../src/shared/api/gallery-contract'
import { loadGalleryEntry, reproduce } from '../../src/main/services/gallery-entries'
import { reportOf } from '../../src/main/services/gallery-reproductions'
import type { LabService } from '../../src/main/services/lab-service'
import { longSpec, newService, quickSpec, recorder, tempDir } from './fixtures'

const services: LabService[] = []
afterEach(() => {
  for (const s of services.splice(0)) s.dispose()
})

/** A gallery of two small entries: `quick` (two variants, one swept) and `long` (to cancel). */
function tinyGallery(): string {
  const root = tempDir('iosched-gallery-')
  mkdirSync(join(root, 'gallery'))
  const ref = (variant: string, label: string, value?: number) => ({
    variant,
    label,
    ...(value === undefined ? {} : { value }),
    process: 'rr',
    metric: 'MBps' as const,
  })
  const quick = {
    name: 'quick',
    order: 1,
    title: 'A quick one',
    source: 'made up for a test',
    about: '# Quick\n\nTwo **schedulers** reading at random.\n',
    variants: [
      { id: 'a', title: 'as it is', spec: quickSpec },
      {
        id: 'b',
        title: 'smaller',
        spec: quickSpec,
        sweep: { path: 'workload.processes[0].params.count', values: [100, 150] },
      },
    ],
    published: [
      { ...ref('a', 'noop'), value_published: 40, unit: 'MB/s' },
      { ...ref('b', 'noop', 150), value_published: 40_000_000, unit: 'bytes/s' },
    ],
    claims: [
      {
        id: 'C1',
        text: 'noop and deadline read alike',
        kind: 'close',
        a: ref('a', 'noop'),
        b: ref('a', 'deadline-fb4'),
        tolerance: 0.5,
      },
      { id: 'C2', text: 'impossibly fast', kind: 'range', x: ref('b', 'noop', 100), min: 1e9 },
    ],
  }
  const long = {
    ...quick,
    name: 'long',
    order: 2,
    variants: [{ id: 'a', title: 'long', spec: longSpec }],
    published: [],
    claims: [],
  }
  writeFileSync(join(root, 'gallery/quick.json'), JSON.stringify(quick))
  writeFileSync(join(root, 'gallery/long.json'), JSON.stringify(long))
  return root
}

const started = (r: ReproduceStarted | { problems: string[] }): ReproduceStarted => {
  if (!('runId' in r)) throw new Error(`not started: ${r.problems.join('; ')}`)
  return r
}

describe('reproducing a gallery entry in the lab service', () => {
  it('reports simulation k of n, then the same verdict as `iosched-lab reproduce`', async () => {
    const root = tinyGallery()
    const lab = newService({ galleryRoot: root })
    services.push(lab)
    const rec = recorder(lab)
    const s = started(await lab.startReproduce({ name: 'quick' }))
    expect(s.entry.title).toBe('A quick one')
    expect(s.entry.page).toContain('**schedulers**')
    expect(s.entry.claims.map((c) => c.id)).toEqual(['C1', 'C2'])
    // before the run: published figures in their reading unit, nothing simulated
    expect(s.entry.figures.map((f) => [f.published, f.simulated, f.unit])).toEqual([
      [40, null, 'MB/s'],
      [40, null, 'MB/s'],
    ])
    const done = await rec.until('reproduce:done', s.runId)
    const progress = rec.events.filter((e) => e.type === 'reproduce:progress' && e.runId === s.runId)
    const ks = [
      ...new Set(
        progress.map((e) => (e.type === 'reproduce:progress' ? `${e.k}/${e.n} ${e.variant} ${e.value}` : '')),
      ),
    ]
    expect(ks).toEqual(['1/3 a null', '2/3 b 100', '3/3 b 150'])

    const cli = await reproduce(loadGalleryEntry('quick', root), {}, { jobs: 0 })
    const expected = reportOf(cli, [], 0)
    expect(done.report.figures).toEqual(expected.figures)
    expect(done.report.claims).toEqual(expected.claims)
    expect(done.report.claims.map((c) => c.pass)).toEqual([true, false])
    expect(done.report).toMatchObject({ name: 'quick', holding: 1, pass: false, failures: [] })
    expect(done.report.figures[1].ratio).toBeCloseTo(done.report.figures[1].simulated! / 40, 12)

    const status = await lab.runStatus({ runId: s.runId })
    expect(status.state).toBe('done')
    expect(status.events.at(-1)).toEqual(done)
    // its latest progress only, then the verdict
    expect(status.events.map((e) => e.type)).toEqual(['reproduce:progress', 'reproduce:done'])
  }, 60_000)

  it('stops at cancelRun: its simulations are killed, the outcome says cancelled', async () => {
    const lab = newService({ galleryRoot: tinyGallery() })
    services.push(lab)
    const rec = recorder(lab)
    const s = started(await lab.startReproduce({ name: 'long' }))
    await rec.until('reproduce:progress', s.runId)
    await expect(lab.cancelRun({ runId: s.runId })).resolves.toBe(true)
    const failed = await rec.until('reproduce:failed', s.runId)
    expect(failed).toMatchObject({ cancelled: true, message: 'cancelled' })
    expect((await lab.runStatus({ runId: s.runId })).state).toBe('cancelled')
    expect(rec.events.some((e) => e.type === 'reproduce:done')).toBe(false)
    await expect(lab.cancelRun({ runId: s.runId })).resolves.toBe(false)
  }, 60_000)

  it('names the known entries for an unknown one, and refuses a name that is no entry name', async () => {
    const lab = newService({ galleryRoot: tinyGallery() })
    services.push(lab)
    await expect(lab.startReproduce({ name: 'nope' })).resolves.toEqual({
      problems: ['no gallery entry "nope"; known: long, quick'],
    })
    expect(LAB_INPUTS.startReproduce.safeParse({ name: '../etc/passwd' }).success).toBe(false)
    expect(LAB_INPUTS.startReproduce.safeParse({ name: 'quick', extra: 1 }).success).toBe(false)
    expect(LAB_INPUTS.startReproduce.safeParse({ name: 'row-vs-cfq-emmc-2012' }).success).toBe(true)
  })

  it('tells the start page which entry each gallery experiment belongs to', async () => {
    const lab = newService()
    services.push(lab)
    const row = (await lab.examples()).filter((e) => e.entry?.name === 'row-vs-cfq-emmc-2012')
    expect(row).toHaveLength(6)
    expect(new Set(row.map((e) => JSON.stringify(e.entry))).size).toBe(1)
    expect(row[0].entry).toMatchObject({ figures: 12, claims: 8 })
    expect(row[0].entry!.summary).toMatch(/^Flash has no seeks/)
    expect(row.map((e) => e.variant)).toContain('lmdd read alone')
  })
})
