// The queue facts of a scratch loop device as this machine's sysfs reports them (rotational, 128
// tags, 1280 KiB and 128 segments per request, write cache, wbt 2 ms), for the fit tests.
import type { QueueFacts } from '../../src/main/services/real/queue-facts'

export function loopFacts(more: Partial<QueueFacts> = {}): QueueFacts {
  return {
    device: 'loop9',
    kind: 'loop',
    rotational: true,
    nrRequests: 256,
    queueDepth: 128,
    hwQueues: 1,
    maxSectorsKiB: 1280,
    maxSegments: 128,
    readAheadKiB: 128,
    logicalBlockSize: 512,
    writeCache: true,
    wbtLatUs: 2000,
    sources: {},
    ...more,
  }
}
