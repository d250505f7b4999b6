import { describe, expect, it } from 'vitest'
import { PidTable } from '../../src/shared/util/pid-table'

describe('PidTable', () => {
  it('answers as a Map would, for simulated and real (large) pids alike', () => {
    const t = new PidTable<string>()
    const m = new Map<number, string>()
    const pids = [1123, 100, 4_194_302, 0, 65_535, 65_536, 101, 2.5, 1123]
    for (const [i, pid] of pids.entries()) {
      t.set(pid, `v${i}`)
      m.set(pid, `v${i}`)
    }
    for (const pid of [...pids, 7, 99, 1000, 3_000_000, -1]) expect(t.get(pid)).toBe(m.get(pid))
    expect([...t.values()]).toEqual([...m.values()]) // insertion order
    expect(t.size).toBe(m.size)
    for (const pid of [100, 4_194_302, 2.5, 42]) expect(t.delete(pid)).toBe(m.delete(pid))
    for (const pid of pids) expect(t.get(pid)).toBe(m.get(pid))
    expect([...t.values()]).toEqual([...m.values()])
  })
})
