import type { ParamIssue, ParamSpec } from '../util/params'

/**
 * A virtual device's parameters for its own I/O path on the host (virtual-params.ts spreads them
 * in): the threads that run it (a loop device's worker), their CPU per request, what handing a
 * request on to the device costs them (virtual.ts handWork), and what each I/O scheduler adds on
 * that serial path.
 */
export const PATH_PARAMS: readonly ParamSpec[] = [
  {
    name: 'pathThreads',
    kind: 'int',
    default: 1,
    unit: 'threads',
    meaning:
      "Host threads that run the device's own I/O path (a loop device: one worker per cgroup; 0 = the path costs no host CPU)",
    min: 0,
    max: 256,
  },
  {
    name: 'pathUs',
    kind: 'number',
    default: 0,
    unit: 'µs',
    meaning:
      "CPU per request of the device's own path on the host (the loop worker's file I/O, the VM exit of a virtio kick, the completion interrupt), run by its threads on the host's CPUs",
    min: 0,
    max: 1e6,
  },
  {
    name: 'notifyUs',
    kind: 'number',
    default: 0,
    unit: 'µs',
    meaning:
      'CPU the thread that hands a request to the device spends notifying it when the device has none in hand (a virtio kick: a VM exit); while the device works through its ring it asks for no notification, so a request handed to a busy device costs none',
    min: 0,
    max: 1e4,
    source:
      "[assumed] 0. drivers/virtio/virtio_ring.c (6.18) virtqueue_kick_prepare: with VIRTIO_RING_F_EVENT_IDX the driver notifies only when the device's avail_event asks for it, which a device sets once it has drained its ring; drivers/block/virtio_blk.c virtio_queue_rq → virtqueue_notify. The fingerprint measures it (dispatch-probe.ts)",
  },
  {
    name: 'segmentUs',
    kind: 'number',
    default: 0,
    unit: 'µs',
    meaning:
      "CPU per memory segment beyond a request's first that the thread handing it to the device spends mapping it: one ring descriptor each where the device has no indirect descriptors",
    min: 0,
    max: 100,
    source:
      '[assumed] 0. block/blk-merge.c (6.18) __blk_rq_map_sg: a scatterlist entry per segment; drivers/virtio/virtio_ring.c virtqueue_add_split: a descriptor per entry. The fingerprint measures it (dispatch-probe.ts)',
  },
  {
    name: 'schedulerPathUs',
    kind: 'string',
    default: '',
    unit: 'scheduler:µs, …',
    meaning:
      'Time per request each I/O scheduler adds on the device\'s serial path, where measured (e.g. "mq-deadline:2.1, bfq:1.3"); a scheduler not listed adds its CPU cost (cpu_per_request × the host\'s schedCpuScale)',
  },
]

/** "scheduler:µs, …" → ns per scheduler; problems go to `issues` at `path` (then {}). */
export function parseSchedulerPath(text: string, path: string, issues: ParamIssue[]): Record<string, number> {
  const out: Record<string, number> = {}
  if (text.trim() === '') return out
  for (const [i, part] of text.split(',').entries()) {
    const m = /^\s*([a-z][a-z0-9-]*)\s*:\s*(\d+(?:\.\d+)?)\s*$/i.exec(part)
    if (!m) {
      issues.push({
        path,
        message: `entry ${i + 1} ("${part.trim()}"): expected "scheduler:µs", e.g. "bfq:1.3"`,
      })
      return {}
    }
    out[m[1]] = Math.round(Number(m[2]) * 1000)
  }
  return out
}
