import { describe, expect, it } from 'vitest'
import { LineSplitter, parseEtaDuration, parseEtaLine } from '../../src/main/services/real/fio-eta'
import {
  parseDiskstats,
  parseInflight,
  parseProcStat,
  parseVmstat,
} from '../../src/main/services/real/proc-stats'
import { parseSchedulerLine } from '../../src/main/services/real/scheduler-line'
import { summarise } from '../../src/main/services/real/disk-sampler'

describe('fio ETA lines', () => {
  it('reads progress and time left', () => {
    const e = parseEtaLine(
      'Jobs: 2 (f=2): [W(1),R(1)][60.0%][r=2760MiB/s,w=1038MiB/s][r=22.1k,w=1037 IOPS][eta 00m:02s]',
    )
    expect(e).toEqual({
      jobs: 2,
      states: 'W(1),R(1)',
      fraction: 0.6,
      etaSeconds: 2,
      rates: 'r=2760MiB/s,w=1038MiB/s',
    })
    expect(
      parseEtaLine('Jobs: 1 (f=1): [_(1),M(1)][-.-%][r=1MiB/s][r=82,w=94 IOPS][eta 01h:01m:31s]'),
    ).toMatchObject({
      fraction: null,
      etaSeconds: 3691,
    })
    expect(parseEtaLine('Jobs: 2 (f=2)')).toMatchObject({ jobs: 2, fraction: null, etaSeconds: null })
    expect(parseEtaLine('fio-3.33')).toBeNull()
    expect(parseEtaDuration('1d:00h:00m:01s')).toBe(86401)
  })

  it('splits fio’s \\r-separated updates into lines across chunks', () => {
    const s = new LineSplitter()
    expect(s.push('Jobs: 1 (f=1)\rJobs: 1 (f=1): [R(1)][50')).toEqual(['Jobs: 1 (f=1)'])
    expect(s.push('.0%][eta 00m:01s]\r\nJobs')).toEqual(['Jobs: 1 (f=1): [R(1)][50.0%][eta 00m:01s]'])
    expect(s.flush()).toEqual(['Jobs'])
  })
})

describe('/proc and /sys', () => {
  const diskstats = [
    ' 254       0 vda 1000 10 80000 500 2000 20 160000 900 3 1200 1400 0 0 0 0 10 5',
    '   7       0 loop0 10 0 800 5 20 0 1600 9 1 12 14 0 0 0 0 0 0',
  ].join('\n')

  it('parses diskstats, vmstat, inflight and the scheduler line', () => {
    expect(parseDiskstats(diskstats, 'loop0')).toEqual({
      reads: 10,
      readMerges: 0,
      readSectors: 800,
      readMs: 5,
      writes: 20,
      writeMerges: 0,
      writeSectors: 1600,
      writeMs: 9,
      inProgress: 1,
      ioMs: 12,
      weightedMs: 14,
    })
    expect(parseDiskstats(diskstats, 'loop1')).toBeNull()
    expect(parseVmstat('nr_dirty 256\nnr_writeback 2\npgpgin 1000\npgpgout 2000\n')).toEqual({
      pgpgin: 1000,
      pgpgout: 2000,
      nrDirty: 256,
      nrWriteback: 2,
    })
    expect(parseInflight('       3        4\n')).toBe(7)
    expect(parseSchedulerLine('none [mq-deadline] kyber bfq \n')).toEqual({
      available: ['none', 'mq-deadline', 'kyber', 'bfq'],
      active: 'mq-deadline',
    })
    expect(parseSchedulerLine('none')).toEqual({ available: ['none'], active: 'none' })
  })

  it('turns samples into the simulator’s time series and device totals', () => {
    const c = (reads: number, sectors: number, weighted: number, io: number) => ({
      reads,
      readMerges: 0,
      readSectors: sectors,
      readMs: 0,
      writes: 0,
      writeMerges: 0,
      writeSectors: 0,
      writeMs: 0,
      inProgress: 0,
      ioMs: io,
      weightedMs: weighted,
    })
    const vm = (kib: number) => ({ pgpgin: kib, pgpgout: 0, nrDirty: 0, nrWriteback: 0 })
    const s = summarise(
      [
        { t: 0, disk: c(0, 0, 0, 0), vm: vm(0) },
        { t: 500, disk: c(100, 2048, 1000, 500), vm: vm(1024) },
        { t: 1000, disk: c(300, 6144, 1500, 750), vm: vm(3072) },
      ],
      [1.5, 0.5],
      500,
    )
    expect(s.timeSeries.tMs).toEqual([0, 500])
    expect(s.timeSeries.readMBps[0]).toBeCloseTo((2048 * 512) / 1e6 / 0.5)
    expect(s.timeSeries.readIops).toEqual([200, 400])
    expect(s.timeSeries.inFlight).toEqual([1.5, 0.5])
    // aqu-sz 2 and 1, minus what was at the driver
    expect(s.timeSeries.queued).toEqual([0.5, 0.5])
    expect(s.vmstat.biKBps).toEqual([2048, 4096])
    expect(s.totals).toMatchObject({ readBytes: 6144 * 512, requests: 300, utilisation: 0.75, readIops: 300 })
    // rates over the workload's own duration when the engine says
    const t = summarise(
      [
        { t: 0, disk: c(0, 0, 0, 0), vm: vm(0) },
        { t: 2000, disk: c(100, 2000, 0, 0), vm: vm(0) },
      ],
      [0],
      500,
      0.5,
    )
    expect(t.seconds).toBe(0.5)
    expect(t.totals.readIops).toBe(200)
  })
})

describe('CPU from /proc/stat', () => {
  const stat = (busy: number[], idle: number, iowait: number): string =>
    [
      `cpu  ${busy[0]} ${busy[1]} ${busy[2]} ${idle} ${iowait} ${busy[3]} ${busy[4]} ${busy[5]} 0 0`,
      'cpu0 1 0 0 0 0 0 0 0 0 0',
      'cpu1 1 0 0 0 0 0 0 0 0 0',
      'intr 12345',
    ].join('\n')

  it('counts user, nice, system, irq, softirq and steal as busy; idle and iowait as not', () => {
    expect(parseProcStat(stat([10, 1, 5, 2, 3, 4], 70, 5))).toEqual({ busy: 25, total: 100, cpus: 2 })
  })

  it('gives the CPUs kept busy per interval, 0 … the number of CPUs', () => {
    const c = (n: number): ReturnType<typeof parseDiskstats> & object => ({
      reads: n,
      readMerges: 0,
      readSectors: 0,
      readMs: 0,
      writes: 0,
      writeMerges: 0,
      writeSectors: 0,
      writeMs: 0,
      inProgress: 0,
      ioMs: 0,
      weightedMs: 0,
    })
    const vm = { pgpgin: 0, pgpgout: 0, nrDirty: 0, nrWriteback: 0 }
    const s = summarise(
      [
        { t: 0, disk: c(0), vm, cpu: { busy: 0, total: 0, cpus: 2 } },
        { t: 500, disk: c(1), vm, cpu: { busy: 50, total: 100, cpus: 2 } },
        { t: 1000, disk: c(2), vm, cpu: { busy: 60, total: 200, cpus: 2 } },
      ],
      [0, 0],
      500,
    )
    expect(s.vmstat.busyCpus).toEqual([1, 0.2])
  })
})
