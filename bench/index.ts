// npm run bench [-- --json] [-- --quick]
// Simulated requests per second (whole runs, one process) and peak memory, for the cases the
// foundation issue names. Figures, not assertions: the machine is noisy, compare ratios.
import { performance } from 'node:perf_hooks'
import { resolveSpec } from '../src/shared/experiment/validate'
import { simulate } from '../src/shared/experiment/runner'
import { readFileSync } from 'node:fs'

interface Case {
  name: string
  scheduler: string
  device: string
  spec: unknown
}

const quick = process.argv.includes('--quick')
const json = process.argv.includes('--json')

function randomRead(device: string, scheduler: string, requests: number): unknown {
  return {
    name: `randread-qd32-${device}`,
    device: { preset: device },
    workload: {
      processes: [
        {
          name: 'fio',
          type: 'fio',
          params: {
            rw: 'randread',
            bs: '4k',
            iodepth: 32,
            ioengine: 'libaio',
            direct: true,
            size: `${requests * 4}k`,
          },
        },
      ],
      stop: { maxSeconds: 1e6 },
    },
    schedulers: [scheduler],
  }
}

const flagship = JSON.parse(
  readFileSync(new URL('../examples/streaming-read-under-write-2003.json', import.meta.url), 'utf8'),
)

const n = quick ? 200_000 : 2_000_000
const cases: Case[] = [
  {
    name: 'randread-4k-qd32',
    scheduler: 'noop',
    device: 'ssd-sata-mlc',
    spec: randomRead('ssd-sata-mlc', 'noop', n),
  },
  {
    name: 'randread-4k-qd32',
    scheduler: 'deadline',
    device: 'ssd-sata-mlc',
    spec: randomRead('ssd-sata-mlc', 'deadline', n),
  },
  {
    name: 'randread-4k-qd32',
    scheduler: 'noop',
    device: 'hdd-7200-sata',
    spec: randomRead('hdd-7200-sata', 'noop', n / 4),
  },
  {
    name: 'randread-4k-qd32',
    scheduler: 'deadline',
    device: 'hdd-7200-sata',
    spec: randomRead('hdd-7200-sata', 'deadline', n / 4),
  },
  ...['noop', 'deadline'].map((s) => ({
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

const rows = []
for (const c of cases) {
  const spec = resolveSpec(c.spec)
  globalThis.gc?.()
  const heap0 = process.memoryUsage().heapUsed
  let peakHeap = heap0
  const samples: number[] = []
  const t0 = performance.now()
  const r = simulate(spec, 0, 0, {
    progress: () => {
      const h = process.memoryUsage().heapUsed
      samples.push(h)
      if (h > peakHeap) peakHeap = h
    },
  })
  const wall = (performance.now() - t0) / 1000
  const requests = r.sim?.requests ?? 0
  // memory flatness: heap in the second half of the run against the first half
  const half = samples.slice(Math.floor(samples.length / 2))
  const firstHalf = samples.slice(0, Math.floor(samples.length / 2))
  const maxOf = (xs: number[]): number => (xs.length ? Math.max(...xs) : 0)
  rows.push({
    name: c.name,
    scheduler: c.scheduler,
    device: c.device,
    requests,
    wallSeconds: +wall.toFixed(3),
    requestsPerSecond: Math.round(requests / wall),
    simulatedSeconds: +r.seconds.toFixed(3),
    peakMemoryMiB: +(process.memoryUsage().rss / 2 ** 20).toFixed(1),
    peakHeapMiB: +(peakHeap / 2 ** 20).toFixed(1),
    heapGrowthSecondHalfMiB: +((maxOf(half) - maxOf(firstHalf)) / 2 ** 20).toFixed(1),
  })
  if (!json) {
    const x = rows[rows.length - 1]
    console.log(
      `${x.name.padEnd(32)} ${x.scheduler.padEnd(9)} ${x.device.padEnd(14)} ${String(x.requests).padStart(9)} req  ` +
        `${String(x.requestsPerSecond).padStart(9)} req/s  rss ${x.peakMemoryMiB} MiB  heap ${x.peakHeapMiB} MiB (2nd half +${x.heapGrowthSecondHalfMiB})`,
    )
  }
}
if (json) console.log(JSON.stringify({ cases: rows }, null, 2))
