import type { ParamSpec } from '../util/params'

/**
 * A virtual device's parameters for how its completions reach the guest (virtual-params.ts spreads
 * them in): the host signalling a pass over its queue at once (signal-pass.ts), the CPU that takes
 * the interrupt, and the guest's own work to complete a signalled pass request by request
 * (virtual-depth-law.ts).
 */
export const SIGNAL_PARAMS: readonly ParamSpec[] = [
  {
    name: 'signalPerPass',
    kind: 'bool',
    default: false,
    unit: '',
    meaning:
      'The host serves the queue in passes — one thread performs every request in the ring in turn, those that arrive meanwhile included — and signals the guest once per pass, so a request completes only when its whole pass has (depth-law mode only; off: each request completes on its own)',
    source:
      "Firecracker's block device with its synchronous file engine (src/vmm/src/devices/virtio/block/virtio/device.rs, process_queue); the fingerprint measures it as the requests completed per interrupt of the virtio disk at QD32 — see devices/signal-pass.ts",
  },
  {
    name: 'irqCompleteUs',
    kind: 'number',
    default: 0,
    unit: 'µs',
    meaning:
      'The guest’s work to complete each request of a pass the host signalled at once (signalPerPass): the interrupt takes the disk’s completions off the ring, and the block softirq completes them one after another — the disk’s request, and through it the upper device’s and the waiting task’s wake-up — so the k-th request of a pass completes k of these after the interrupt (0: a pass completes at once)',
    source:
      'block/blk-mq.c (6.x) blk_mq_complete_request_remote: a device with one hardware queue (virtio_blk here, loop above it) completes in the BLOCK softirq (blk_done_softirq), not in the interrupt. Measured on the lab machine (Linux 6.18 guest, loop device on the virtio disk, 2026-12-06, ftrace; a QD1 psync reader beside a QD32 libaio reader): per interrupt, passes of 33 requests, the hard irq took 5–7 µs and two BLOCK softirqs 15 and 22 µs (the disk’s completions, then the loop device’s) — 1.3 µs a request — and the reader’s reads took as long as the deep reader’s (0.41 against 0.42 ms), as this gives (0.337 against 0.336 ms simulated; 0.23 against 0.34 at 0). The loop-dio-virtio preset leaves it at 0 for now: its host serves reads and writes in one queue (signal-pass.ts), where a QD1 reader beside 64 writes in flight then waits behind the writes resubmitted while its own completion comes; on this host reads overtake writes (ftrace: 4 KiB reads 63 µs at the disk, the writes beside them 2.3 ms), which the model does not have yet',
    min: 0,
    max: 1000,
  },
  {
    name: 'dioDoneUs',
    kind: 'number',
    default: 0,
    unit: 'µs',
    meaning:
      'With a backing file (a loop device) and a pass completed request by request (irqCompleteUs): the guest’s work to complete each write of the pass after the block softirq has been through the pass. The file system completes an asynchronous direct read in the softirq, but punts a write to a workqueue, whose kworker completes the loop device’s request once the softirq is done — so a pass’s writes complete after all its reads, one after another, each this long; in the softirq a write takes only the disk’s completion, half of a read’s two (0: writes complete in their turn, as reads do)',
    source:
      'fs/iomap/direct-io.c (6.x) iomap_dio_done: reads complete inline (IOMAP_DIO_INLINE_COMP), an asynchronous write without IOCB_DIO_CALLER_COMP (the loop worker’s kiocb, drivers/block/loop.c lo_rw_aio) is queued to the super block’s s_dio_done_wq (iomap_dio_complete_work); the kworker is bound to the CPU that queued it, the interrupt’s, and runs when the softirq has returned. Measured on the lab machine (Linux 6.18, 2026-12-06, ftrace; a real-time QD1 reader beside 64 random 4 KiB writes in flight on the loop device): in a pass of 62 writes and a read the read’s loop completion came first, 28 µs after the interrupt, the writes’ 50 µs after it, 0.32 µs apart (median) in the kworker, each then completed by the loop device’s softirq. The loop-dio-virtio preset leaves it at 0 with irqCompleteUs: without the CPU the completion work holds on the interrupt’s CPU, a reader woken first runs at once and gets ahead (re-simulated against the validations of 2026-12-06, readers beside writers 10–25 % too fast)',
    min: 0,
    max: 1000,
  },
  {
    name: 'irqCpu',
    kind: 'int',
    default: -1,
    unit: '',
    meaning:
      'The CPU that takes the completion interrupts (a loop device: its backing disk’s). With wake packing, a task a completion wakes runs there, and the tasks one interrupt wakes compete for that CPU when it returns (-1: not known — each woken task goes to the CPU it last ran on)',
    source:
      'the fingerprint counts the disk’s request-queue interrupts per CPU (/proc/interrupts) during its deep reads: one CPU taking 90 % or more of them is this; a woken task follows its waker’s CPU (kernel/sched/fair.c select_task_rq_fair, wake_affine: this_cpu is the interrupt’s)',
    min: -1,
    max: 4095,
  },
]
