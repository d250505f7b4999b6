import { describe, expect, it } from 'vitest'
import { READ, WRITE } from '../../src/shared/block/types'
import { mqDeadline, mqDeadlineAsyncSlots } from '../../src/shared/schedulers/mq-deadline'
import type { AsyncDepthRule } from '../../src/shared/schedulers/mq-deadline'
import type { SlotWaiter } from '../../src/shared/block/queue'
import type { BioOwner } from '../../src/shared/block/types'
import type { Handler } from '../../src/shared/sim/engine'
import { MS } from '../../src/shared/sim/time'
import { ctx, makeRig } from '../helpers/rig'

describe('mq-deadline async_depth: the tags writes may hold, by kernel', () => {
  it('5.14–6.9: ⌊3/4·nr_requests⌋ per sbitmap word, which only bites below four tags', () => {
    // 128 tags are four words of 32: 96 per word is no limit
    expect(mqDeadlineAsyncSlots('5.14', 0, 128)).toBeUndefined()
    expect(mqDeadlineAsyncSlots('5.14', 0, 4)).toBeUndefined() // four words of one bit
    expect(mqDeadlineAsyncSlots('5.14', 0, 3)).toBe(2) // one word of 3 bits: max(1, 9/4)
    expect(mqDeadlineAsyncSlots('5.14', 0, 2)).toBe(1)
    // a value set in sysfs is per word as well: 8 of 32 tags (four words of 8) is no limit, 4 is 16
    expect(mqDeadlineAsyncSlots('5.14', 8, 32)).toBeUndefined()
    expect(mqDeadlineAsyncSlots('5.14', 4, 32)).toBe(16)
  })

  it('6.8: 3/4 of each word, so about 3/4 of the tags', () => {
    expect(mqDeadlineAsyncSlots('6.8', 0, 128)).toBe(96) // 4 × ⌊3·32/4⌋
    expect(mqDeadlineAsyncSlots('6.8', 0, 64)).toBe(48) // 4 × ⌊3·16/4⌋
  })

  it('6.10–6.16: nr_requests by default; a set value scaled to one word, rounded up', () => {
    expect(mqDeadlineAsyncSlots('6.10', 0, 128)).toBeUndefined()
    expect(mqDeadlineAsyncSlots('6.10', 8, 32)).toBe(8) // ⌈8·8/32⌉ = 2 per word
    expect(mqDeadlineAsyncSlots('6.10', 10, 32)).toBe(12) // ⌈10·8/32⌉ = 3 per word
  })

  it('6.17+: nr_requests by default; a set value over the whole map', () => {
    expect(mqDeadlineAsyncSlots('6.17', 0, 128)).toBeUndefined()
    for (let d = 1; d < 32; d++) expect(mqDeadlineAsyncSlots('6.17', d, 32)).toBe(d)
  })
})

/**
 * A buffered writer floods the queue with async writes (always more waiting than there are tags);
 * meanwhile a reader issues one sync read every 10 ms. Returns the most tags writes held at once and
 * how many reads found a tag at once.
 */
function flood(nr: number, rule: AsyncDepthRule, asyncDepth = 0) {
  const r = makeRig(
    mqDeadline,
    { async_depth_rule: rule, async_depth: asyncDepth },
    { queueDepth: 2, completionUs: 2000 },
    nr,
  )
  let sector = 0
  const writer: Handler = {
    onEvent: () => {
      // scattered pages (no merging): a writeback thread with dirty pages to spare
      while (r.queue.waiting(WRITE) < 8) r.submit((sector += 64), 8, WRITE, ctx(1), false)
      if (r.engine.now < 200 * MS) r.engine.at(r.engine.now + MS / 4, writer, 0)
    },
  }
  let reads = 0
  let readsIn = 0
  let readsGranted = 0
  let readsDone = 0
  const readWaiter: SlotWaiter = { slotGranted: () => void readsGranted++ }
  const readOwner: BioOwner = { bioDone: () => void readsDone++ }
  const reader: Handler = {
    onEvent: () => {
      reads++
      const bio = r.queue.makeBio(50_000_000 + reads * 64, 8, READ, true, ctx(2), readOwner, null, 0)
      if (r.queue.submit(bio, readWaiter)) readsIn++
      if (r.engine.now < 190 * MS) r.engine.at(r.engine.now + 10 * MS, reader, 0)
    },
  }
  let maxWriteTags = 0
  const sampler: Handler = {
    onEvent: () => {
      const readTags = readsIn + readsGranted - readsDone
      maxWriteTags = Math.max(maxWriteTags, nr - r.queue.freeSlots(WRITE) - readTags)
      if (r.engine.now < 200 * MS) r.engine.at(r.engine.now + MS / 8, sampler, 0)
    },
  }
  r.engine.at(0, writer, 0)
  r.engine.at(MS + 3, reader, 0)
  r.engine.at(7, sampler, 0)
  r.engine.run(400 * MS)
  return { maxWriteTags, readsIn, reads }
}

describe('mq-deadline async_depth: a write flood leaves tags for sync reads', () => {
  it('5.14 rule with 3 tags: writes hold at most 2, every read finds a tag at once', () => {
    const o = flood(3, '5.14')
    expect(o.maxWriteTags).toBe(2)
    expect(o.readsIn).toBe(o.reads)
    expect(o.reads).toBeGreaterThan(15)
  })

  it('5.14 rule with 4 tags: the per-word limit does not bite, writes take every tag, reads wait', () => {
    const o = flood(4, '5.14')
    expect(o.maxWriteTags).toBe(4)
    expect(o.readsIn).toBeLessThan(o.reads)
  })

  it('6.17 rule with async_depth 5 of 8 tags: writes hold at most 5, reads always get in', () => {
    const o = flood(8, '6.17', 5)
    expect(o.maxWriteTags).toBe(5)
    expect(o.readsIn).toBe(o.reads)
  })
})
