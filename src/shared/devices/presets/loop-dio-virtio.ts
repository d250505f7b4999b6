import type { DevicePreset } from './preset'

/**
 * Where the service times, the depth law, the stalls and the host path come from: the lab's
 * fingerprint of this device (`iosched-lab validate --save-fingerprint`, which fits them and
 * re-simulates its sweep: worst residual 11 % at the held-out QD8 reads). Machines of this kind
 * differ from one another — another one made 44.6 k QD32 random writes a second where this one
 * made 104.8 k — so a fingerprint of the user's own machine is better than these defaults.
 */
export const FITTED =
  'fitted by `iosched-lab fingerprint` on a machine of this kind (Linux 6.18.44 Firecracker guest, 2 vCPUs, 2026-12-05: QD1 4 KiB random reads 14.6 k IOPS, QD32 102 k): '

/**
 * The lab machine's scratch device: a file-backed loop device with direct I/O (`losetup
 * --direct-io=on`, as `run --real` makes it) on ext4 on a virtio disk of a cloud VM (2 vCPUs,
 * Linux 6.18). Its service times, the depth law of its host side (`readContentionUs`: each
 * request in flight adds to the others' time) and its stalls are the fingerprint's (see each
 * source); until 2026-12-05 they were the lanes model's defaults, which made this machine's QD32
 * random reads 110 MB/s where it makes 435.
 */
export const LOOP_DIO_VIRTIO: DevicePreset = {
  name: 'loop-dio-virtio',
  model: 'virtual',
  description:
    'A scratch loop device with direct I/O on ext4 on a virtio disk of a 2-vCPU cloud VM (the lab machine, Linux 6.18): rotational as loop devices report, one worker thread, 128 tags; under it the virtio disk’s mq-deadline and its 256-descriptor ring.',
  values: {
    kind: 'loop',
    rotational: true,
    queueDepth: 128,
    maxTransferKiB: 1280,
    maxSegments: 128,
    writeCache: true,
    wbtLatUs: 2000,
    signalPerPass: true,
    irqCpu: 1,
    pathThreads: 1,
    notifyUs: 15.7,
    segmentUs: 0.09,
    sharedLanes: true,
    segmentKiB: '0:4, 84:4, 84.01:16, 100:40',
    backingScheduler: 'mq-deadline',
    backingTunables: 'batch_rule=6.8, async_depth_rule=6.17',
    backingDevice: 'vda',
    backingRotational: true,
    backingNrRequests: 256,
    backingQueueDepth: 128,
    backingMaxTransferKiB: 4096,
    ringSlots: 256,
    readServiceUs:
      '0:13.19, 1:30.148, 5:41.924, 10:43.46, 25:47.044, 50:48.58, 75:51.652, 90:68.548, 95:73.668, 99:292.804, 99.9:481.22, 99.99:1669.06, 100:3609.72',
    writeServiceUs:
      '0:38.926, 1:54.212, 5:64.452, 10:67.524, 25:74.692, 50:102.34, 75:133.06, 90:145.348, 95:165.828, 99:387.012, 99.9:604.1, 99.99:4585.412, 100:4585.412',
    readContentionUs: 6.373,
    writeContentionUs: 4.829,
    stallEveryMs: 4.312,
    stallMs: '0:0.181, 25:0.181, 50:0.181, 75:0.181, 100:6.118',
    readMBps: 2481.856,
    writeMBps: 3510.817,
    pathUs: 1.699,
    schedulerPathUs: 'mq-deadline:0, kyber:0.403',
    flushUs:
      '0:45, 1:72, 5:101, 10:109, 20:120, 30:126, 40:130, 50:136, 60:142, 70:150, 80:154, 90:173, 95:210, 99:436, 99.5:606, 99.9:1192, 99.99:4067, 100:6992',
  },
  sources: {
    kind: 'drivers/block/loop.c: a file-backed block device; the scratch device of `run --real`',
    rotational: '/sys/block/loopN/queue/rotational = 1 on this machine (loop leaves the default set)',
    queueDepth: '/sys/block/loopN/mq/0/nr_tags = 128 (loop.c: hw_queue_depth default 128)',
    maxTransferKiB: '/sys/block/loopN/queue/max_sectors_kb = 1280 on this machine',
    maxSegments:
      '/sys/block/loopN/queue/max_segments = 128 on this machine; measured (ftrace blk tracer, Linux 6.18): 1 MiB O_DIRECT writes and the block device cache’s writeback reached the driver as 512 KiB requests (128 one-page segments) on 2026-12-03, and the direct writes as 1 MiB requests (longer segments: segmentKiB) on 2026-12-05',
    writeCache: '/sys/block/loopN/queue/write_cache = "write back" (loop.c: a backing file with fsync)',
    wbtLatUs:
      '/sys/block/loopN/queue/wbt_lat_usec = 2000 on this machine. Measured (ftrace, a QD1 reader beside a buffered 1 MiB writer whose passes end with BLKFLSBUF, 2026-12-05): the writeback had at most 96 requests in flight on the loop device (¾ of its 128 tags: blk-wbt.c scaled up) in bursts, and the reads never waited for a tag',
    signalPerPass:
      'measured on the virtio disk under the loop device (2026-12-05): 1.02 completions per interrupt at QD1, 3.95 at QD4, 19 at QD32 (/proc/interrupts virtio1-req.0 against /sys/block/vda/stat), and 82 writes of 512 KiB issued over 6.5 ms completed together 10 ms after the first (ftrace) — Firecracker’s process_queue; it applies in the depth-law mode the fingerprint fits (readContentionUs > 0)',
    irqCpu:
      'measured on this machine (2026-12-06): every interrupt of the virtio disk’s request queue on CPU1 (/proc/interrupts virtio1-req.0: 0 and 83 043 846; /proc/irq/36/effective_affinity_list = 1), and during an idle-class QD1 reader beside a QD8 reader 99 % of the fio threads’ wake-ups targeted CPU1 (sched_wakeup, /work/runs/s08/real)',
    pathThreads:
      'drivers/block/loop.c (6.x): one worker per blkcg (loop_queue_work); the workloads run in one cgroup',
    notifyUs:
      'measured on this machine (dispatch-probe.ts, 2026-12-07, Linux 6.18, loop over ext4 over the Firecracker virtio disk, the mean of 3 runs: 16.6, 14.5, 16.0): the loop worker’s time past a 4 KiB write’s dispatch to vda when vda had no request in hand (QD1: 17.6–18.1 µs, the middle 80 %’s mean over 9 900–10 600 dispatches a run) less when it had some (QD8: 1.5–1.7 µs over 23 000–26 000) — vda offers VIRTIO_RING_F_EVENT_IDX (bit 29 of /sys/block/vda/device/features), so it is notified only once it has drained its ring',
    segmentUs:
      'measured on this machine (dispatch-probe.ts, 2026-12-07, 3 runs: 0.091, 0.089, 0.089): past the dispatch of a 512 KiB piece of a 2 MiB direct write that the loop device cut at its 128 one-page segments, to a busy vda, the worker’s time beyond a 4 KiB one’s, per segment beyond the first (780–840 pieces a run)',
    flushUs:
      'measured on this machine (Linux 6.18, 2026-12-06): fio 4 KiB O_DIRECT random writes with fsync=1 on a fresh loop device, 6 s, 21 914 fsyncs: sync latency p1 84.5, p10 121, p50 148.5, p90 185, p99 448.5, p99.9 1204 µs, max 7.0 ms (/work/runs/s07/real/out-fl.json), each knot less the 12.5 µs the model spends around the flush itself (the fsync system call 0.4, the woken writer 10.1, the worker’s path 2.1: the host’s syscallUs and wakeUs, pathUs). The same writer buffered made 13.9 MB/s (fsync p50 264 µs, its page’s write and the flush), and beside a QD1 direct reader 14.9 MB/s with the reader at 25.6 MB/s (49.6 alone)',
    segmentKiB:
      'measured (ftrace block_rq_issue/complete on vda in 13 traced runs, and 120 validate runs of a QD1 4 KiB reader beside a QD4 stream of 1 MiB O_DIRECT writes, 2026-12-04/05): in 74 % the reader waited behind a batch of writes (1.0–2.2 MB/s), in 26 % the ring held all four writes and a read (segments ≥ 16.5 KiB) and the reader made 4–10 MB/s. The validations since (v31–v36, 2026-12-05/06, 120 runs of the same cell) found the fast case in 8: 39 of 240 runs, 16 %, the share drawn here (the machine’s memory decides it, and it moved from 26 % to 7 %). A slow run traced with its scheduling (2026-12-05 09:10): the ring took one write at a time — each completed alone, ~300 µs apart, the next re-issued until it fitted — and a 1 MiB buffer the loop device split at its 128 segments came as 516 + 508 KiB: 128 segments of about 4 KiB each (one page each but for a pair), so that two requests need 260 of the 256 descriptors; mq-deadline always had a next write, and the read waited 3.95 ms for its batch of 16. Again untraced but for request events on 2026-12-06 00:11 (fio QD1 reader beside the QD4 1 MiB direct writer, 4 s): all 18 164 writes of the loop device were 512 KiB, each issued twice on vda (the ring refused the second), D2C 197 µs at p50 and one completion every 208 µs (2.27 GB/s); the reads waited 3.13 ms at p50 between vda’s insert and issue — 16 writes of 512 KiB. Until 2026-12-06 the slow runs here were 8 KiB segments, which gave the same 130 descriptors a request but requests of 1 MiB: batches twice as long as measured. fio’s buffers are fresh memory at each start: how contiguous they are is drawn per run',
    backingScheduler:
      '/sys/block/vda/queue/scheduler on this machine (the disk under the backing file’s ext4)',
    backingTunables:
      'kernel 6.18: mq-deadline’s 6.8+ batch rule and 6.17+ tag reservation (mq-deadline.ts); /sys/block/vda/queue/iosched/* at their defaults',
    backingDevice: 'the disk the backing file is on (stat → /sys/dev/block/254:0)',
    backingRotational: '/sys/block/vda/queue/rotational = 1 (virtio-blk leaves it set)',
    backingNrRequests: '/sys/block/vda/queue/nr_requests = 256',
    backingQueueDepth: '/sys/block/vda/mq/0/nr_tags = 128',
    backingMaxTransferKiB: '/sys/block/vda/queue/max_sectors_kb = 4096',
    ringSlots:
      '/sys/block/vda/device/features: no VIRTIO_RING_F_INDIRECT_DESC; queue/max_segments 254 = ring − 2. Measured (ftrace): beside a QD4 stream of 1 MiB writes the driver refused requests (each issued twice: BLK_STS_DEV_RESOURCE) with two in flight. A request of page-cache pages maps to one descriptor per run of adjacent pages (__blk_rq_map_sg joins them): pages allocated in order make long runs, pages dirtied at random one each (backing-stack.ts pageRuns): 84 writeback requests of 512 KiB were in flight at once, and none merged — their 128 + 128 one-page segments exceed max_segments (ll_new_hw_segment)',
    sharedLanes:
      'measured (ftrace blk tracer, Linux 6.18, a 4 KiB O_DIRECT QD1 reader next to 1 MiB writes): reads dispatched with no write at the device took D2C p50 0.07 ms; the few dispatched with 16–90 writes there took 2–21 ms — reads queue behind writes (the default)',
    readServiceUs:
      FITTED + "the QD1 4 KiB random reads' latency histogram (14636 IOPS), knot by knot, less the host path",
    writeServiceUs:
      FITTED + "the QD1 4 KiB random writes' latency histogram (7987 IOPS), knot by knot, less the host path",
    readContentionUs:
      FITTED +
      "the QD32 4 KiB random reads' mean latency beyond QD1's, per other request in flight (312.897 − 67.916 µs over 31), then re-simulated against their rate",
    writeContentionUs:
      FITTED +
      "the QD32 4 KiB random writes' mean latency beyond QD1's, per other request in flight (304.063 − 124.247 µs over 31), then re-simulated",
    stallEveryMs:
      FITTED +
      'at QD32 random reads 2.12 % of the requests took over twice the median (67.437 stalls a second of a 32-deep queue), then re-simulated against that share',
    stallMs:
      FITTED +
      'how far beyond the median the QD32 random reads over twice the median were (quantiles), then re-simulated',
    readMBps: FITTED + '1 MiB sequential reads at 2356.413 MB/s',
    writeMBps: FITTED + '1 MiB sequential writes at 3155.162 MB/s',
    pathUs:
      FITTED +
      'at QD32 random reads (101965 IOPS) the CPUs were 0.359 busy, fio 0.145 of them: the rest per request',
    schedulerPathUs:
      FITTED +
      "the same reads' time per request under each scheduler less none's (mq-deadline 0.451 µs (median of 3 passes run back to back with none), kyber 0.802 µs (median of 3 passes run back to back with none)); corrected by re-simulating the scheduler points against none's",
  },
}
