import { describe, expect, it } from 'vitest'
import { READ, WRITE } from '../../src/shared/block/types'
import { TimeSeries } from '../../src/shared/metrics/timeseries'
import { ProcessTransfers } from '../../src/shared/metrics/process-transfers'
import { MS, SECOND } from '../../src/shared/sim/time'
import { Rng } from '../../src/shared/sim/rng'

describe('ProcessTransfers', () => {
  it('gives each process the series of adding its completions at once, whatever the batching', () => {
    // 300 processes completing in a random interleaving (runs of one process too), 50 000
    // completions — several logged batches — over 900 s, past the 4096 bins of 100 ms, so the
    // series double their interval (twice) while completions of theirs wait in the log
    const rng = new Rng(7)
    const pt = new ProcessTransfers()
    const direct = new Map<number, TimeSeries>()
    let t = 0
    let pid = 1000
    for (let i = 0; i < 50_000; i++) {
      if (rng.next() < 0.8) pid = 1000 + Math.floor(rng.next() * 300)
      t += Math.floor(rng.next() * 36 * MS)
      const op = rng.next() < 0.3 ? WRITE : READ
      const bytes = 512 * (1 + Math.floor(rng.next() * 256))
      pt.add({ pid, name: `p${pid}` }, t, op, bytes)
      if (!direct.has(pid)) direct.set(pid, new TimeSeries())
      direct.get(pid)!.addTransfer(t, op, bytes)
    }
    expect(t).toBeGreaterThan(410 * SECOND)
    const end = t + 5 * MS
    const out = pt.finish(end)
    expect(out.map((p) => p.pid)).toEqual([...direct.keys()].sort((a, b) => a - b))
    for (const p of out) {
      expect(p.name).toBe(`p${p.pid}`)
      const { intervalMs, readMBps, writeMBps } = direct.get(p.pid)!.finish(end)
      expect(p.series).toEqual({ intervalMs, readMBps, writeMBps })
    }
    expect(out[0].series.intervalMs).toBe(400) // doubled twice
  })

  it('gives the same series at the edges: completions at the very end, at the 4 096th bin, early leavers', () => {
    // runs ending on a bin's edge with completions at that instant (folded into the bin before),
    // and ending exactly at 4 096 bins of 100 ms · 2^k, where only a process completing at that
    // instant has its series' bins doubled; processes that stop early keep few completions
    const rng = new Rng('process-transfers-edges')
    for (const end of [1000 * MS, 409_600 * MS, 819_200 * MS, 409_600 * MS + 7, 250 * MS]) {
      const pt = new ProcessTransfers()
      const direct = new Map<number, TimeSeries>()
      const add = (pid: number, t: number): void => {
        const op = rng.next() < 0.5 ? WRITE : READ
        const bytes = 4096 * (1 + Math.floor(rng.next() * 64))
        pt.add({ pid, name: `p${pid}` }, t, op, bytes)
        if (!direct.has(pid)) direct.set(pid, new TimeSeries())
        direct.get(pid)!.addTransfer(t, op, bytes)
      }
      const times = Array.from({ length: 3000 }, () => Math.floor(rng.next() * end)).sort((a, b) => a - b)
      for (const t of times) add(1 + Math.floor(rng.next() * (t < end / 8 ? 40 : 20)), t)
      add(7, end) // at the very end
      add(7, end)
      add(3, end)
      const out = pt.finish(end)
      expect(out.map((p) => p.pid)).toEqual([...direct.keys()].sort((a, b) => a - b))
      for (const p of out) {
        const { intervalMs, readMBps, writeMBps } = direct.get(p.pid)!.finish(end)
        expect(p.series).toEqual({ intervalMs, readMBps, writeMBps })
      }
      if (end === 409_600 * MS) {
        // doubled for the processes that completed at the end only
        expect(out.find((p) => p.pid === 7)!.series.intervalMs).toBe(200)
        expect(out.find((p) => p.pid === 30)!.series.intervalMs).toBe(100)
      }
    }
  })
})
