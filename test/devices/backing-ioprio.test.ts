// A loop device hands each request's I/O priority down to its backing file's disk (Linux 6.15+,
// drivers/block/loop.c lo_rw_aio: ki_ioprio = req_get_ioprio(rq); backing-params.ts,
// backingIoprio). Measured on this machine (Linux 6.18, loop device on the virtio disk, whose
// scheduler is mq-deadline; `validate --matrix`, 2026-12-06): a real-time QD1 reader beside 64
// random 4 KiB writes in flight made 33 MB/s under none at the loop device, the writer 83 MB/s.
// Without the priority going down, the disk served the reader as one of the writer's.
import { describe, expect, it } from 'vitest'
import { simulate } from '../../src/shared/experiment/runner'
import { resolveSpec } from '../../src/shared/experiment/validate'

const run = (backingIoprio: string) => {
  const job = (rw: string, iodepth: number) => ({
    rw,
    bs: '4k',
    iodepth,
    ioengine: iodepth > 1 ? 'libaio' : 'psync',
    direct: true,
    filename: '/dev',
    size: '256M',
    time_based: true,
    runtime: 0.4,
  })
  const spec = resolveSpec({
    device: {
      preset: 'loop-dio-virtio',
      // the worker's dispatch costs (virtual-dispatch.test.ts) off: they move the balance between
      // the spells in which the writes wait for the reader and those in which they flow, in one
      // run of 0.4 s; this test is of the priority handed down
      overrides: {
        ringSlots: 256,
        backingScheduler: 'mq-deadline',
        backingIoprio,
        notifyUs: 0,
        segmentUs: 0,
      },
    },
    workload: {
      processes: [
        { name: 'rt', type: 'fio', ioClass: 'rt', params: job('randread', 1) },
        { name: 'writer', type: 'fio', params: job('randwrite', 64) },
      ],
      stop: { maxSeconds: 0.5 },
    },
    schedulers: ['none'],
  })
  const [rt, writer] = simulate(spec, 0, 0).processes
  return { rt: rt.MBps, writer: writer.MBps }
}

describe('the I/O priority a loop device hands down', () => {
  it('lets the backing disk’s mq-deadline serve a real-time reader before the writes', () => {
    const inherited = run('request')
    const dropped = run('none')
    expect(inherited.rt).toBeGreaterThan(3 * dropped.rt)
    expect(inherited.writer).toBeLessThan(0.75 * dropped.writer)
  })

  it('refuses a value it does not know, naming the parameter', () => {
    expect(() => run('sometimes')).toThrow(/backingIoprio/)
  })
})
