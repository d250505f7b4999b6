// A simulation holds its thread from start to end; between slices of events it calls the progress
// hook — where a simulation child checks that its parent is still there (src/main/workers). The
// slices must be short: at most 25 000 events, about 0.1 s of CPU time on the heaviest models.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { simulate } from '../../src/shared/experiment/runner'
import { resolveSpec } from '../../src/shared/experiment/validate'

const flagship = resolveSpec(
  JSON.parse(
    readFileSync(join(import.meta.dirname, '../../examples/streaming-read-under-write-2003.json'), 'utf8'),
  ),
)

describe('the progress hook', () => {
  it('is called at least once every 25 000 simulated events', () => {
    const noop = flagship.schedulers.findIndex((s) => s.name === 'noop')
    let calls = 0
    const r = simulate(flagship, noop, 0, { progress: () => void calls++ })
    const events = r.sim!.events
    expect(events).toBeGreaterThan(100_000)
    expect(calls).toBeGreaterThanOrEqual(Math.floor(events / 25_000))
  })
})
