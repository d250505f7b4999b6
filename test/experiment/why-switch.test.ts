import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { ExperimentRunner } from '../../src/main/services/experiments'

const flagship = JSON.parse(
  readFileSync(new URL('../../examples/streaming-read-under-write-2003.json', import.meta.url), 'utf8'),
)

describe('switching the why off for an experiment', () => {
  const spec = resolveSpec({ ...flagship, schedulers: ['deadline', 'anticipatory'] })

  it.each([0, 2])('leaves it out of every run, in this process and in children (jobs %i)', async (jobs) => {
    const off = await new ExperimentRunner().run(spec, {}, { jobs, why: false })
    const on = await new ExperimentRunner().run(spec, {}, { jobs })
    expect(off.runs.every((r) => r.why === undefined)).toBe(true)
    expect(on.runs.every((r) => r.why !== undefined)).toBe(true)
    // the rest of each result is the same
    const strip = (r: (typeof on.runs)[number]): string => JSON.stringify({ ...r, why: undefined })
    expect(off.runs.map(strip)).toEqual(on.runs.map(strip))
  })
})
