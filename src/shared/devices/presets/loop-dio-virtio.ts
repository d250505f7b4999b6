import type { DevicePreset } from './preset'

/**
 * The lab machine's scratch device: a file-backed loop device with direct I/O (`losetup
 * --direct-io=on`, as `run --real` makes it) on ext4 on a virtio disk of a cloud VM (2 vCPUs,
 * Linux 6.18). The model's defaults are this device; the values were fitted by `iosched-lab
 * fingerprint` on it (see each source).
 */
export const LOOP_DIO_VIRTIO: DevicePreset = {
  name: 'loop-dio-virtio',
  model: 'virtual',
  description:
    'A scratch loop device with direct I/O on ext4 on a virtio disk of a 2-vCPU cloud VM (the lab machine, Linux 6.18): rotational as loop devices report, one worker thread, 128 tags.',
  values: {
    kind: 'loop',
    rotational: true,
    queueDepth: 128,
    maxTransferKiB: 1280,
    maxSegments: 128,
    pathThreads: 1,
    sharedLanes: true,
  },
  sources: {
    kind: 'drivers/block/loop.c: a file-backed block device; the scratch device of `run --real`',
    rotational: '/sys/block/loopN/queue/rotational = 1 on this machine (loop leaves the default set)',
    queueDepth: '/sys/block/loopN/mq/0/nr_tags = 128 (loop.c: hw_queue_depth default 128)',
    maxTransferKiB: '/sys/block/loopN/queue/max_sectors_kb = 1280 on this machine',
    maxSegments:
      '/sys/block/loopN/queue/max_segments = 128 on this machine; measured (ftrace blk tracer, Linux 6.18): 1 MiB O_DIRECT writes and the block device cache’s writeback both reach the driver as 512 KiB requests (128 pages)',
    pathThreads:
      'drivers/block/loop.c (6.x): one worker per blkcg (loop_queue_work); the workloads run in one cgroup',
    sharedLanes:
      'measured (ftrace blk tracer, Linux 6.18, a 4 KiB O_DIRECT QD1 reader next to 1 MiB writes): reads dispatched with no write at the device took D2C p50 0.07 ms; the few dispatched with 16–90 writes there took 2–21 ms — reads queue behind writes (the default)',
  },
}
