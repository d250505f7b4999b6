// The cases `npm run bench` measures: what the foundation issue names, plus every scheduler on the
// SSD random-read case (the catalogue's speed target).
import { readFileSync } from 'node:fs'
import { schedulers } from '../src/shared/schedulers/registry'

export interface Case {
  name: string
  scheduler: string
  device: string
  spec: unknown
  /**
   * 'rate' (default): simulated requests per CPU second of one scheduler's run, best of the runs.
   * 'cpuSeconds': the CPU seconds of every scheduler in the spec run one after another, warm (the
   * best of the runs in one process, so the JIT has seen each scheduler before the best).
   */
  measure?: 'rate' | 'cpuSeconds'
}

/** One fio job of 4 KiB random reads (direct) on `device` under `scheduler`, named `name`. */
function fioRandomRead(name: string, device: string, scheduler: string, params: object): unknown {
  return {
    name,
    device: { preset: device },
    workload: {
      processes: [{ name: 'fio', type: 'fio', params: { rw: 'randread', bs: '4k', ...params } }],
      stop: { maxSeconds: 1e6 },
    },
    schedulers: [scheduler],
  }
}

/** `numjobs` fio jobs reading 4 KiB at random with psync (QD1 each), `requests` in all. */
const parallelJobs = (jobs: number, scheduler: string, requests: number): unknown =>
  fioRandomRead(`jobs-${jobs}-nvme-tlc`, 'nvme-tlc', scheduler, {
    ioengine: 'psync',
    direct: true,
    numjobs: jobs,
    size: `${(requests / jobs) * 4}k`,
  })

const randomRead = (device: string, scheduler: string, requests: number): unknown =>
  fioRandomRead(`randread-qd32-${device}`, device, scheduler, {
    iodepth: 32,
    ioengine: 'libaio',
    direct: true,
    size: `${requests * 4}k`,
  })

export function benchCases(quick: boolean): Case[] {
  const flagship = JSON.parse(
    readFileSync(new URL('../examples/streaming-read-under-write-2003.json', import.meta.url), 'utf8'),
  )
  const n = quick ? 200_000 : 2_000_000
  return [
    ...schedulers.map((t) => ({
      name: 'randread-4k-qd32',
      scheduler: t.name,
      device: 'ssd-sata-mlc',
      spec: randomRead('ssd-sata-mlc', t.name, n),
    })),
    ...schedulers.map((t) => ({
      name: 'randread-4k-qd32',
      scheduler: t.name,
      device: 'nvme-tlc',
      spec: randomRead('nvme-tlc', t.name, n),
    })),
    ...['cfq', 'bfq'].flatMap((s) =>
      [1, 1024].map((jobs) => ({
        name: `jobs-${jobs}`,
        scheduler: s,
        device: 'nvme-tlc',
        spec: parallelJobs(jobs, s, quick ? 65_536 : 262_144),
      })),
    ),
    {
      name: 'flagship-warm',
      scheduler: 'all',
      device: 'hdd-2003-ide',
      spec: flagship,
      measure: 'cpuSeconds' as const,
    },
    ...['noop', 'deadline'].map((s) => ({
      name: 'randread-4k-qd32',
      scheduler: s,
      device: 'hdd-7200-sata',
      spec: randomRead('hdd-7200-sata', s, n / 4),
    })),
    ...['noop', 'deadline', 'anticipatory'].map((s) => ({
      name: 'streaming-read-under-write-2003',
      scheduler: s,
      device: 'hdd-2003-ide',
      spec: { ...flagship, schedulers: [s] },
    })),
    {
      name: 'memory-flat-10M',
      scheduler: 'noop',
      device: 'ssd-sata-mlc',
      spec: randomRead('ssd-sata-mlc', 'noop', quick ? 1_000_000 : 10_000_000),
    },
  ]
}
