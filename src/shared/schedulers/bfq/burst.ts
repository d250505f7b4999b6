import type { SimTime } from '../../sim/time'
import type { BfqData } from './data'
import type { BfqQueue } from './queue'
import { K } from './tunables'

/**
 * Large bursts (bfq_handle_burst): 8 or more queues created within 180 ms of each other are
 * usually one service or command spawning parallel workers (systemd at boot, git grep): they get
 * neither weight raising nor idling for throughput's sake. A smaller burst (an application
 * starting) is raised as usual.
 */
export function handleBurst(bfqd: BfqData, q: BfqQueue, now: SimTime): void {
  if (q.inBurstList || q.inLargeBurst) return
  if (now > bfqd.lastInsInBurst + K.burstInterval) {
    bfqd.largeBurst = false
    resetBurstList(bfqd, q)
  } else if (bfqd.largeBurst) {
    q.inLargeBurst = true
  } else {
    addToBurst(bfqd, q)
  }
  bfqd.lastInsInBurst = now
}

function resetBurstList(bfqd: BfqData, q: BfqQueue): void {
  clearList(bfqd)
  if (bfqd.busyQueues === 0) {
    bfqd.burstList.push(q)
    q.inBurstList = true
    bfqd.burstSize = 1
  } else {
    bfqd.burstSize = 0
  }
}

function addToBurst(bfqd: BfqData, q: BfqQueue): void {
  bfqd.burstSize++
  if (bfqd.burstSize === K.largeBurstThresh) {
    bfqd.largeBurst = true
    for (const m of bfqd.burstList) m.inLargeBurst = true
    q.inLargeBurst = true
    clearList(bfqd)
  } else {
    bfqd.burstList.push(q)
    q.inBurstList = true
  }
}

function clearList(bfqd: BfqData): void {
  for (const m of bfqd.burstList) m.inBurstList = false
  bfqd.burstList.length = 0
}

/** A queue leaves the burst list (its process exited, or it was idle for very long). */
export function leaveBurst(bfqd: BfqData, q: BfqQueue, exiting: boolean): void {
  if (!q.inBurstList) return
  const i = bfqd.burstList.indexOf(q)
  if (i >= 0) bfqd.burstList.splice(i, 1)
  q.inBurstList = false
  if (exiting && bfqd.burstSize > 0) bfqd.burstSize--
}
