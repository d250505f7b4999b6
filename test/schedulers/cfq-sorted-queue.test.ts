// CFQ's per-process sorted queue keeps next_rq's place in the sector index as requests come and
// go (so a dispatch needs no search): through random inserts and removals — of next_rq mostly, as
// a dispatch does, and of others, as merges do — next_rq must be what a search for the removed
// request's neighbours chooses, and its kept place must hold it.
import { expect, it } from 'vitest'
import { HeadChooser, SortedQueue } from '../../src/shared/schedulers/cfq/sorted-queue'
import type { Request } from '../../src/shared/block/types'

const rq = (id: number, sector: number): Request => ({ id, sector, sync: true }) as Request

it('keeps next_rq and its place through inserts and removals', () => {
  const chooser = new HeadChooser(2048, 2, true)
  const q = new SortedQueue()
  const held: Request[] = []
  let x = 4242
  const draw = (n: number): number => {
    x = (x * 1103515245 + 12345) % 2 ** 31
    return x % n
  }
  let last = 0
  for (let id = 0; id < 3000; id++) {
    if (held.length < 24 && draw(3) > 0) {
      // sectors close together, so the backward penalty and wrapping both come into play
      const r = rq(id, draw(40_000))
      held.push(r)
      q.addSorted(r, chooser, last)
    } else if (held.length > 0) {
      const victim = draw(4) > 0 ? q.nextRq! : held[draw(held.length)]
      // the choice the kernel makes: the better of the victim's neighbours, found by a search
      let want = q.nextRq
      if (victim === q.nextRq) {
        const i = q.indexOf(victim)
        want = chooser.choose(
          i + 1 < q.size ? q.at(i + 1) : q.size > 1 && i !== 0 ? q.at(0) : null,
          i > 0 ? q.at(i - 1) : null,
          last,
        )
      }
      q.removeSorted(victim, chooser, last)
      held.splice(held.indexOf(victim), 1)
      expect(q.nextRq).toBe(want)
      last = victim.sector + 8
    }
    expect(q.queued).toBe(held.length)
    if (q.nextRq !== null) {
      // the kept place: the queue's next removal of next_rq takes the request at that place
      const place = q.indexOf(q.nextRq)
      expect(place).toBeGreaterThanOrEqual(0)
      expect((q as unknown as { nextPlace: number }).nextPlace).toBe(place)
    } else expect(held.length).toBe(0)
  }
})
