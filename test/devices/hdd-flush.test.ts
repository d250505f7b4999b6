import { describe, expect, it } from 'vitest'
import { WRITE } from '../../src/shared/block/types'
import type { Hdd } from '../../src/shared/devices/hdd'
import { presetDriver, random } from './driver'

describe('HDD cache flush (FLUSH CACHE, for barriers and REQ_PREFLUSH)', () => {
  it('completes once every acknowledged write is on the media, not before', () => {
    const d = presetDriver('hdd-7200-sata')
    const hdd = d.device as Hdd
    // flush as the last of 20 scattered cached writes completes, before the drive destages idly
    let start = -1
    let dirtyAtFlush = -1
    let doneAt = -1
    let dirtyThen = -1
    let n = 0
    const complete = d.deviceCompleted.bind(d)
    d.deviceCompleted = (rq, now) => {
      complete(rq, now)
      if (++n !== 20) return
      start = now
      dirtyAtFlush = hdd.dirtySectors
      hdd.flush!(() => {
        doneAt = d.engine.now
        dirtyThen = hdd.dirtySectors
      })
    }
    const r = d.run(random(WRITE, 4, 100_000_000), 20)
    expect(r.meanLatencyMs).toBeLessThan(1) // the writes went to the write cache
    expect(dirtyAtFlush).toBeGreaterThan(0)
    expect(dirtyThen).toBe(0)
    // scattered 4 KiB writes cannot all reach the platters in less than ~2 ms each
    expect(doneAt - start).toBeGreaterThan((dirtyAtFlush / 8) * 2e6)
  })
  it('with nothing dirty, it is done at once', () => {
    const d = presetDriver('hdd-7200-sata')
    let called = false
    ;(d.device as Hdd).flush!(() => (called = true))
    expect(called).toBe(true)
  })
})
