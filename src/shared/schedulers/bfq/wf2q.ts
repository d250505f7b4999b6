import { MS } from '../../sim/time'
import type { SimTime } from '../../sim/time'
import type { BfqData, ServiceTree } from './data'
import { IN_ACTIVE, IN_IDLE, IN_NO_TREE } from './queue'
import type { BfqQueue } from './queue'
import { K, ioprioToWeight } from './tunables'

/**
 * B-WF2Q+ (block/bfq-wf2q.c), flat: one service tree per class (RT, BE, IDLE), no cgroups. A
 * queue that becomes busy gets a virtual start S (the tree's virtual time V, or its old finish if
 * that is later) and a finish F = S + budget/weight; the queue served next is, in the highest
 * class with a busy queue, the eligible one (S ≤ V) with the smallest F. V advances by
 * service/Σweights as sectors are dispatched. Virtual times are integers, service << 22 / weight,
 * as in the kernel, so runs are exact and reproducible.
 */

export const treeOf = (bfqd: BfqData, q: BfqQueue): ServiceTree => bfqd.trees[q.ioClass - 1]

/** bfq_delta: service mapped into virtual time. */
const vdelta = (service: number, weight: number): number => Math.floor((service * K.serviceScale) / weight)

function calcFinish(q: BfqQueue, service: number): void {
  q.finish = q.start + vdelta(service, q.weight)
}

/** bfq_bfqq_served: charge `served` sectors to the queue and advance the virtual time. */
export function served(bfqd: BfqData, q: BfqQueue, served: number): void {
  if (q.wrCoeff > 1) q.serviceFromWr += served
  q.serviceFromBacklogged += served
  q.service += served
  const st = treeOf(bfqd, q)
  st.vtime += vdelta(served, st.wsum)
  forgetIdle(st)
}

/**
 * bfq_bfqq_charge_time: a slow queue is charged what a fast one would have received in the time
 * it held the device, so seeky processes share time, not sectors.
 */
export function chargeTime(bfqd: BfqData, q: BfqQueue, timeMs: number): void {
  const timeoutMs = K.chargeTimeout / MS
  let charge = q.service
  if (timeMs > 0 && timeMs < timeoutMs) charge = Math.floor((bfqd.maxBudget * timeMs) / timeoutMs)
  if (charge < q.service) charge = q.service
  if (charge > q.budget) q.budget = charge
  served(bfqd, q, Math.max(0, charge - q.service))
}

/** bfq_forget_idle: drop idle-tree queues whose finish V has passed (one per call, O(log n)). */
function forgetIdle(st: ServiceTree): void {
  if (st.idle.size === 0) return
  const last = st.idle.last()
  if (st.active.size === 0 && last !== null && last.finish <= st.vtime) st.vtime = last.finish
  const first = st.idle.first()
  if (first !== null && first.finish <= st.vtime) {
    st.idle.remove(first)
    first.tree = IN_NO_TREE
    forget(st, first)
  }
}

function forget(st: ServiceTree, q: BfqQueue): void {
  q.onSt = false
  st.wsum -= q.weight
}

/**
 * __bfq_activate_entity: a queue becomes busy. It keeps its place if it left the idle tree
 * (S = max(V, F)); a queue waiting for a request that arrived in time may be back-shifted to its
 * old finish, so a short pause does not cost it its share.
 */
export function activate(bfqd: BfqData, q: BfqQueue, nonBlockingWaitRq: boolean): void {
  const st = treeOf(bfqd, q)
  const backshifted = nonBlockingWaitRq && st.vtime > q.finish
  const minVstart = backshifted ? q.finish : st.vtime
  if (q.tree === IN_IDLE) {
    st.idle.remove(q)
    q.tree = IN_NO_TREE
    q.start = Math.max(minVstart, q.finish)
  } else {
    q.start = minVstart
    st.wsum += q.weight
    q.onSt = true
  }
  enqueue(bfqd, q, backshifted)
}

/**
 * bfq_update_fin_time_enqueue: apply a pending class/level change, compute F from the budget,
 * push a back-shifted queue up to V (less so if weight-raised), insert into the active tree.
 */
function enqueue(bfqd: BfqData, q: BfqQueue, backshifted: boolean): void {
  const st = applyPrioChange(bfqd, q)
  calcFinish(q, q.budget)
  if (backshifted && st.vtime > q.finish) {
    const d = Math.floor((st.vtime - q.finish) / q.wrCoeff)
    q.start += d
    q.finish += d
  }
  activeInsert(bfqd, st, q)
}

/**
 * bfq_active_insert / bfq_active_extract: a queue enters or leaves its class's active tree, and
 * the device's active list with it (at the head: the list runs from the most recently inserted).
 * Injection scans that list for a queue to take a request from.
 */
function activeInsert(bfqd: BfqData, st: ServiceTree, q: BfqQueue): void {
  st.active.insert(q)
  q.tree = IN_ACTIVE
  const head = bfqd.activeHead
  q.actPrev = null
  q.actNext = head
  if (head !== null) head.actPrev = q
  bfqd.activeHead = q
  q.inActiveList = true
}

function activeRemove(bfqd: BfqData, st: ServiceTree, q: BfqQueue): void {
  st.active.remove(q)
  q.tree = IN_NO_TREE
  if (!q.inActiveList) return
  if (q.actPrev !== null) q.actPrev.actNext = q.actNext
  else bfqd.activeHead = q.actNext
  if (q.actNext !== null) q.actNext.actPrev = q.actPrev
  q.actPrev = q.actNext = null
  q.inActiveList = false
}

/**
 * __bfq_requeue_entity: the in-service queue expired with requests left (S moves to where its
 * service ended), or a waiting queue's budget changed (same S, new F).
 */
export function requeue(bfqd: BfqData, q: BfqQueue): void {
  if (q === bfqd.inService) {
    calcFinish(q, q.service)
    q.start = q.finish
  } else {
    activeRemove(bfqd, treeOf(bfqd, q), q)
  }
  enqueue(bfqd, q, false)
}

/**
 * __bfq_deactivate_entity: a queue stops being busy. If its finish is still ahead of V it waits
 * in the idle tree (keeping its weight in the sum) so coming back soon does not reset its place.
 */
export function deactivate(bfqd: BfqData, q: BfqQueue, insIntoIdleTree: boolean): void {
  if (!q.onSt) return
  const st = treeOf(bfqd, q)
  const inService = q === bfqd.inService
  if (inService) calcFinish(q, q.service)
  if (q.tree === IN_ACTIVE) activeRemove(bfqd, st, q)
  else if (q.tree === IN_IDLE) st.idle.remove(q)
  q.tree = IN_NO_TREE
  if (!insIntoIdleTree || q.finish <= st.vtime) {
    forget(st, q)
  } else {
    st.idle.insert(q)
    q.tree = IN_IDLE
  }
}

/**
 * bfq_lookup_next_entity + bfq_get_next_queue: the next queue to serve — the idle class if it
 * has waited BFQ_CL_IDLE_TIMEOUT, else the highest busy class; in it, jump V forward if no queue
 * is eligible, then take the eligible queue with the smallest finish out of the tree.
 */
export function takeNextQueue(bfqd: BfqData, now: SimTime): BfqQueue | null {
  if (bfqd.busyQueues === 0) return null
  let cls = 0
  if (now > bfqd.idleClassLastService + K.classIdleTimeout) {
    if (bfqd.trees[2].active.size > 0) cls = 2
    bfqd.idleClassLastService = now
  }
  for (; cls < 3; cls++) {
    const st = bfqd.trees[cls]
    const root = st.active.root
    if (root === null) continue
    if (root.minStart > st.vtime) updateVtime(st, root.minStart)
    const q = st.active.firstEligible(st.vtime)!
    activeRemove(bfqd, st, q)
    q.service = 0
    return q
  }
  return null
}

function updateVtime(st: ServiceTree, v: number): void {
  st.vtime = v
  forgetIdle(st)
}

/**
 * The weight from the class level and the raising coefficient, applied at once (the kernel defers
 * most changes to the next requeue; the sum of weights of the tree follows).
 */
export function applyWeight(bfqd: BfqData, q: BfqQueue): void {
  const w = q.origWeight * q.wrCoeff
  if (w === q.weight) return
  if (q.onSt) treeOf(bfqd, q).wsum += w - q.weight
  q.weight = w
  if (q.wrCoeff > 1) weightsRemove(bfqd, q)
  else if (q.busy || q.dispatched > 0) weightsAdd(bfqd, q)
}

/** __bfq_entity_update_weight_prio with update_class_too: a new ioprio takes effect off-tree. */
function applyPrioChange(bfqd: BfqData, q: BfqQueue): ServiceTree {
  const old = treeOf(bfqd, q)
  if (q.newClass === q.ioClass && q.newLevel === q.level) return old
  const counted = q.weightCounted
  weightsRemove(bfqd, q)
  if (q.busy) {
    bfqd.busyPerClass[q.ioClass - 1]--
    bfqd.busyPerClass[q.newClass - 1]++
  }
  old.wsum -= q.weight
  q.ioClass = q.newClass
  q.level = q.newLevel
  q.origWeight = ioprioToWeight(q.level)
  q.weight = q.origWeight * q.wrCoeff
  const st = treeOf(bfqd, q)
  st.wsum += q.weight
  if (st !== old) q.start = st.vtime
  if (counted) weightsAdd(bfqd, q)
  return st
}

/** bfq_weights_tree_add: count a busy non-raised queue's weight (for the symmetry test). */
export function weightsAdd(bfqd: BfqData, q: BfqQueue): void {
  if (q.weightCounted || q.wrCoeff > 1) return
  const i = q.origWeight / 10
  if (bfqd.weightCounts[i]++ === 0) bfqd.distinctWeights++
  q.weightCounted = true
  q.countedWeight = q.origWeight
}

export function weightsRemove(bfqd: BfqData, q: BfqQueue): void {
  if (!q.weightCounted) return
  const i = q.countedWeight / 10
  if (--bfqd.weightCounts[i] === 0) bfqd.distinctWeights--
  q.weightCounted = false
}

/** bfq_add_bfqq_busy: a queue got requests; it joins its class's schedule. */
export function addBusy(bfqd: BfqData, q: BfqQueue): void {
  activate(bfqd, q, q.nonBlockingWaitRq)
  q.nonBlockingWaitRq = false
  q.busy = true
  bfqd.busyQueues++
  bfqd.busyPerClass[q.ioClass - 1]++
  if (q.dispatched === 0) weightsAdd(bfqd, q)
  if (q.wrCoeff > 1) bfqd.wrBusyQueues++
}

/** bfq_del_bfqq_busy: a queue has no requests left; it leaves the schedule (maybe to the idle tree). */
export function delBusy(bfqd: BfqData, q: BfqQueue): void {
  q.busy = false
  bfqd.busyQueues--
  bfqd.busyPerClass[q.ioClass - 1]--
  if (q.dispatched === 0) weightsRemove(bfqd, q)
  if (q.wrCoeff > 1) bfqd.wrBusyQueues--
  deactivate(bfqd, q, true)
}
