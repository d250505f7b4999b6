import { describe, expect, it } from 'vitest'
import {
  freshPageCost,
  measureFreshPages,
  probeFreshPages,
} from '../../src/main/services/real/fresh-page-probe'
import type { FreshPageProbe } from '../../src/main/services/real/fresh-page-probe'

/** Times of 2 MiB steps, µs: `warm` of about 800, then `fresh` that cost `perPageUs` more a page. */
function times(warm: number, fresh: number, perPageUs = 11): number[] {
  const out: number[] = []
  for (let i = 0; i < warm; i++) out.push(800 + (i % 9) * 6)
  for (let i = 0; i < fresh; i++) out.push(800 + 512 * perPageUs + (i % 5) * 40)
  return out
}

/** The host part of a preset as captureHost leaves it: overrides and their sources. */
const captured = (overrides: Record<string, unknown>) => ({
  overrides,
  sources: {} as Record<string, string>,
})

// The fingerprint's buffered point left the cost at 0 whenever its 64 MiB found warm memory alone
// (fp36, fp38), while a buffered writer's passes on the same machine met reported memory; the
// probe touches memory until it meets some and prices it itself.
describe('what touching memory the guest reported costs, measured directly', () => {
  it('prices the MiB that came from reported memory by their distance from the warm ones', () => {
    const p = freshPageCost(times(500, 32))
    expect(p.freshMiB).toBe(64)
    expect(p.touchedMiB).toBe(1064)
    expect(p.freshPageUs!).toBeGreaterThan(11 * 0.97)
    expect(p.freshPageUs!).toBeLessThan(11 * 1.05)
    expect(p.warmUsPerMiB).toBeGreaterThan(399)
    expect(p.warmUsPerMiB).toBeLessThan(430)
  })

  it('says the cost was not seen when every MiB was warm', () => {
    const p = freshPageCost(times(300, 0))
    expect(p.freshPageUs).toBeNull()
    expect(p.freshMiB).toBe(0)
  })

  it('puts the measured cost into the host preset with its source, or 0 when it was not seen', async () => {
    const probe = (r: FreshPageProbe) => () => Promise.resolve(r)
    const seen = captured({ freshPageUs: 0 })
    const notes: string[] = []
    const measured = await measureFreshPages(
      seen,
      probe({ freshPageUs: 10.5, touchedMiB: 900, freshMiB: 64, warmUsPerMiB: 410 }),
      (m) => notes.push(m),
    )
    // seen: the fit keeps it (refineVirtual's `measured`)
    expect(measured).toBe(true)
    expect(seen.overrides.freshPageUs).toBe(10.5)
    expect(seen.sources.freshPageUs).toMatch(/^measured: 64 of 900 MiB/)
    expect(notes[0]).toMatch(/10\.5 µs/)
    const unseen = captured({ freshPageUs: 0 })
    const unseenMeasured = await measureFreshPages(
      unseen,
      probe({ freshPageUs: null, touchedMiB: 8192, freshMiB: 0, warmUsPerMiB: 400 }),
    )
    expect(unseenMeasured).toBe(false)
    expect(unseen.overrides.freshPageUs).toBe(0)
    expect(unseen.sources.freshPageUs).toMatch(/not seen/)
    // a machine that does not report (captureHost left no freshPageUs): nothing to measure
    let called = false
    const none = captured({})
    const noneMeasured = await measureFreshPages(none, () => {
      called = true
      return Promise.resolve({ freshPageUs: 1, touchedMiB: 1, freshMiB: 1, warmUsPerMiB: 1 })
    })
    expect(noneMeasured).toBe(false)
    expect(called).toBe(false)
    expect(none.overrides.freshPageUs).toBeUndefined()
  })

  it('keeps the sweep when the probe fails: the cost is 0 and its source says why', async () => {
    const host = captured({ freshPageUs: 0 })
    const notes: string[] = []
    const measured = await measureFreshPages(
      host,
      () => Promise.reject(new Error('node -e: killed by SIGTERM')),
      (m) => notes.push(m),
    )
    expect(measured).toBe(false)
    expect(host.overrides.freshPageUs).toBe(0)
    expect(host.sources.freshPageUs).toMatch(
      /^not measured \(the fresh-page probe failed: node -e: killed by SIGTERM\)/,
    )
    expect(notes[0]).toMatch(/failed/)
  })

  it('touches memory in a child process, 2 MiB at a time, no more than its cap', async () => {
    const p = await probeFreshPages({ capMiB: 24 })
    expect(p.touchedMiB).toBe(24)
    expect(p.warmUsPerMiB).toBeGreaterThan(0)
    if (p.freshPageUs !== null) expect(p.freshPageUs).toBeGreaterThan(0)
  })

  it('says so when the program it runs prints no list of times', async () => {
    await expect(probeFreshPages({ capMiB: 1, execPath: '/bin/echo' })).rejects.toThrow(
      /printed no list of times/,
    )
  })
})
