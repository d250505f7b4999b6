import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { simulate } from '../../src/shared/experiment/runner'
import { RunPool } from '../../src/main/services/run-pool'
import { warmUpSpec } from '../../src/main/services/warm-up'

const flagship = JSON.parse(
  readFileSync(new URL('../../examples/streaming-read-under-write-2003.json', import.meta.url), 'utf8'),
)

describe('determinism', () => {
  const spec = resolveSpec({ ...flagship, repetitions: 2 })

  it('gives the same result, byte for byte, for the same spec and seed', () => {
    const a = JSON.stringify(simulate(spec, 1, 0))
    const b = JSON.stringify(simulate(spec, 1, 0))
    expect(a).toBe(b)
  })

  it('gives different results for different repetitions, and the same across schedulers’ workloads', () => {
    const r0 = simulate(spec, 1, 0)
    const r1 = simulate(spec, 1, 1)
    expect(r0.seed).not.toBe(r1.seed)
    expect(simulate(spec, 0, 1).seed).toBe(r1.seed) // every scheduler sees the same randomness
  })

  it('gives the same result in a child process as in this one', async () => {
    const local = JSON.stringify(simulate(spec, 1, 1))
    const pool = new RunPool(2)
    const [remote] = await pool.runAll(spec, [{ schedIndex: 1, repetition: 1 }])
    expect(JSON.stringify(remote)).toBe(local)
    expect(pool.running).toBe(0)
  })

  it('gives the same result in a child that warmed up first, or was warming up when the job came', async () => {
    const warm = warmUpSpec()!
    expect(warm).not.toBeNull()
    // in this process: the warm-up's simulations leave nothing behind that a later run would see
    const fresh = JSON.stringify(simulate(spec, 1, 1))
    for (let i = 0; i < warm.schedulers.length; i++) simulate(warm, i, 0)
    expect(JSON.stringify(simulate(spec, 1, 1))).toBe(fresh)
    // in a child: the job arrives while it warms up, goes first, and ends the warm-up
    const pool = new RunPool(1)
    try {
      pool.warm(1, warm, null)
      const [remote] = await pool.runAll(spec, [{ schedIndex: 1, repetition: 1 }])
      expect(JSON.stringify(remote)).toBe(fresh)
    } finally {
      pool.dispose()
    }
  }, 60_000)
})
