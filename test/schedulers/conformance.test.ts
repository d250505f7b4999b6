// Conformance of every registered scheduler to the ops-table contract, under a random mix of
// processes (priorities, reads and writes, sync and async, sequential runs that merge and random
// requests), on a rotational single-command device and on a deep non-rotational one.
import { describe, expect, it } from 'vitest'
import { schedulers } from '../../src/shared/schedulers/registry'
import { driveMix } from '../helpers/contract'

/**
 * Where the algorithm bounds how long a request can wait, the longest wait (insertion to dispatch)
 * under this overload on the single-command disk, in seconds — from each algorithm's own limits:
 * FIFO order; deadline's 5 s write_expire; mq-deadline's 10 s prio_aging_expire for its IDLE
 * class; AS and ROW's batch and starvation limits; one sweep of an elevator. CFQ and BFQ serve
 * their IDLE class only when nothing else is queued, and SSTF serves the nearest request first:
 * neither bounds the wait, by design.
 */
const waitBoundSeconds: Record<string, number | undefined> = {
  noop: 2,
  none: 2,
  fcfs: 2,
  deadline: 6,
  'mq-deadline': 12,
  anticipatory: 6,
  kyber: 2,
  row: 6,
  scan: 2,
  look: 2,
  'c-look': 2,
  cfq: undefined,
  bfq: undefined,
  sstf: undefined,
}

describe.each(schedulers.map((s) => [s.name, s] as const))(
  '%s conforms to the scheduler contract',
  (_name, type) => {
    for (const device of [
      { queueDepth: 1, rotational: true },
      { queueDepth: 32, rotational: false },
    ]) {
      const where = `queue depth ${device.queueDepth}, ${device.rotational ? 'rotational' : 'flash'}`
      it(`loses, duplicates and invents no request, and leaves none waiting forever (${where})`, () => {
        const o = driveMix(type, 11, device)
        expect(o.submitted).toBeGreaterThan(500)
        expect(o.completed).toBe(o.submitted)
        expect(o.dispatchedTwice).toEqual([])
        expect(o.notInserted).toEqual([])
      })

      if (device.queueDepth === 1)
        it(`bounds the wait of every request where its algorithm does (${where})`, () => {
          expect(type.name in waitBoundSeconds, `add ${type.name} to waitBoundSeconds`).toBe(true)
          const bound = waitBoundSeconds[type.name]
          if (bound !== undefined) expect(driveMix(type, 11, device).maxWaitMs).toBeLessThan(bound * 1000)
        })

      it(`has work exactly when requests are queued (${where})`, () => {
        expect(driveMix(type, 12, device).hasWorkMismatches).toEqual([])
      })

      it(`dispatches identically for the same inputs (${where})`, () => {
        const a = driveMix(type, 13, device)
        const b = driveMix(type, 13, device)
        expect(b.log).toEqual(a.log)
        expect(driveMix(type, 14, device).log).not.toEqual(a.log)
      })
    }
  },
)
