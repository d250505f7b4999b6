import { describe, expect, it } from 'vitest'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { simulate } from '../../src/shared/experiment/runner'
import { SimFile } from '../../src/shared/host/files'

// O_DIRECT against the page cache: the dirty folios a direct transfer overlaps are written back
// first by the process (kiocb_write_and_wait), a direct write drops the cached pages it covers,
// and folios are as large as the buffered write that made them.

const KiB = 1024
const MiB = 2 ** 20
const device = { preset: 'nullblk', overrides: { completionUs: 100, queueDepth: 64 } }

type Params = Record<string, unknown>
type Proc = { name: string; startMs?: number; params: Params }
/** fio processes on /dev, on bare devices (no file system), under noop. */
function runOnDev(processes: Proc[], host: Params = {}, stop?: string[]) {
  return simulate(
    resolveSpec({
      device,
      host: { overrides: host, filesystem: { type: 'none' } },
      workload: {
        processes: processes.map((p) => ({ ...p, type: 'fio', params: { filename: '/dev', ...p.params } })),
        ...(stop ? { stop: { processes: stop } } : {}),
      },
      schedulers: ['noop'],
    }),
    0,
    0,
  )
}

/** A buffered writer rewriting the device's first 16 MiB in the cache (left dirty), and `second` after 500 ms. */
function afterWriter(second: Params, host: Params = {}, writer: Params = {}) {
  return runOnDev(
    [
      // still running (the device stays open: its last close would flush the cache)
      {
        name: 'writer',
        params: {
          rw: 'write',
          bs: '1M',
          size: '16M',
          invalidate: false,
          time_based: true,
          runtime: 10,
          ...writer,
        },
      },
      // invalidate=0: its open would flush the whole cache (BLKFLSBUF)
      { name: 'second', startMs: 500, params: { invalidate: false, ...second } },
    ],
    host,
    ['second'],
  )
}

const directRead = { rw: 'read', bs: '4k', size: '4k', direct: true }

describe('direct I/O and the cached data it overlaps', () => {
  it('a 4 KiB direct read inside data a 1 MiB buffered write dirtied writes that 1 MiB back first', () => {
    const r = afterWriter(directRead)
    // the writer left everything dirty: without the reader nothing reaches the device
    expect(afterWriter({ ...directRead, direct: false }).totals.writeBytes).toBe(0)
    expect(r.totals.writeBytes).toBe(1 * MiB)
    expect(r.totals.readBytes).toBe(4 * KiB)
    // the reader waited for that write: its read took a 1 MiB write and a read on the device
    expect(r.processes[1].latencyMs.max).toBeGreaterThan(0.2)
  })

  it('with base pages only (kernels before folios) just the page itself is written', () => {
    expect(afterWriter(directRead, { largeFolioKiB: 4 }).totals.writeBytes).toBe(4 * KiB)
  })

  it('a folio is no larger than the write that made it: 64 KiB writes, 64 KiB written back', () => {
    expect(afterWriter(directRead, {}, { bs: '64k' }).totals.writeBytes).toBe(64 * KiB)
  })

  it('the BSD raw device bypasses the buffer cache: nothing is written back', () => {
    expect(afterWriter(directRead, { physio: true }).totals.writeBytes).toBe(0)
  })

  it('a direct write writes the overlapped dirty folio back, then its own data', () => {
    const r = afterWriter({ rw: 'write', bs: '4k', size: '4k', direct: true })
    expect(r.totals.writeBytes).toBe(1 * MiB + 4 * KiB)
  })

  it('a direct write drops the clean cached pages it covers: a buffered read then goes to the device', () => {
    // the writer's data made clean (end_fsync), then a direct write over part of it, then a read;
    // a holder keeps the device open all along (its last close would drop the cache): a direct
    // 4 KiB read a second — its own reads are not the reader's
    const reread = (withDirect: boolean) => {
      const r = runOnDev([
        {
          name: 'holder',
          params: {
            rw: 'read',
            bs: '4k',
            size: '4k',
            direct: true,
            time_based: true,
            runtime: 1.5,
            rate: '4k',
          },
        },
        {
          name: 'writer',
          params: { rw: 'write', bs: '1M', size: '16M', invalidate: false, end_fsync: true },
        },
        ...(withDirect
          ? [
              {
                name: 'direct',
                startMs: 400,
                params: { rw: 'write', bs: '4k', size: '4k', direct: true, invalidate: false },
              },
            ]
          : []),
        { name: 'reader', startMs: 800, params: { rw: 'read', bs: '4k', size: '4k', invalidate: false } },
      ])
      return r.totals.readBytes - r.processes.find((p) => p.name === 'holder')!.readBytes
    }
    expect(reread(false)).toBe(0)
    expect(reread(true)).toBeGreaterThanOrEqual(4 * KiB)
  })
})

describe('folios of a buffered write', () => {
  const file = () => new SimFile(1, 'f', 64 * 4096, [{ fileSector: 0, devSector: 0, nsect: 64 * 8 }])

  it('takes the largest aligned power of two the rest of the write fills, up to the maximum', () => {
    const f = file()
    f.makeFolios(0, 16, 9)
    expect([f.folioStart(5), f.folioEnd(5)]).toEqual([0, 16])
    // pages 17..29: 17 alone (alignment), 18–19, 20–23, 24–27, 28–29
    f.makeFolios(17, 30, 9)
    const bounds = [17, 18, 20, 24, 28, 29].map((p) => [f.folioStart(p), f.folioEnd(p)])
    expect(bounds).toEqual([
      [17, 18],
      [18, 20],
      [20, 24],
      [24, 28],
      [28, 30],
      [28, 30],
    ])
    // capped by the largest folio
    f.makeFolios(32, 64, 2)
    expect([f.folioStart(33), f.folioEnd(33)]).toEqual([32, 36])
  })

  it('never spans a page that is already cached (the kernel retries a smaller folio)', () => {
    const f = file()
    f.pageStates().setState(3, 1)
    f.makeFolios(0, 8, 9)
    expect([f.folioStart(1), f.folioEnd(1)]).toEqual([0, 2])
    expect([f.folioStart(2), f.folioEnd(2)]).toEqual([2, 3])
    expect([f.folioStart(4), f.folioEnd(4)]).toEqual([4, 8])
  })
})
