// npm run bench [-- --json] [-- --quick] [-- --runs N]
// Simulated requests per second (whole runs, one process) and peak memory, for the cases the
// foundation issue names. Figures, not assertions. The machine is noisy: each case runs N times
// (default 3) and the best is reported, with the ratio to noop on the same case. Requests per
// second are over the process's CPU time (user + system), which other load on the machine
// disturbs far less than wall-clock time; the wall-clock figure is printed beside it.
import { performance } from 'node:perf_hooks'
import { resolveSpec } from '../src/shared/experiment/validate'
import { simulate } from '../src/shared/experiment/runner'
import { readFileSync } from 'node:fs'
import { schedulers } from '../src/shared/schedulers/registry'

interface Case {
  name: string
  scheduler: string
  device: string
  spec: unknown
}

const quick = process.argv.includes('--quick')
const json = process.argv.includes('--json')
const runsArg = process.argv.indexOf('--runs')
const runs = runsArg > 0 ? Math.max(1, Number(process.argv[runsArg + 1]) || 1) : 3

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
// Every scheduler on the SSD random-read case (the catalogue's speed target), noop and deadline on
// the HDD, the flagship experiment, and one long run for memory flatness.
const cases: Case[] = [
  ...schedulers.map((t) => ({
    name: 'randread-4k-qd32',
    scheduler: t.name,
    device: 'ssd-sata-mlc',
    spec: randomRead('ssd-sata-mlc', t.name, n),
  })),
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

const rows: Record<string, string | number>[] = []
for (const c of cases) {
  const spec = resolveSpec(c.spec)
  const repeat = c.name.startsWith('memory') ? 1 : runs
  let best = 0
  let bestWall = 0
  let requests = 0
  let simSeconds = 0
  let peakHeap = 0
  let growth = 0
  for (let k = 0; k < repeat; k++) {
    globalThis.gc?.()
    const samples: number[] = []
    const t0 = performance.now()
    const c0 = process.cpuUsage()
    const r = simulate(spec, 0, 0, { progress: () => samples.push(process.memoryUsage().heapUsed) })
    const cpu = process.cpuUsage(c0)
    const wall = (performance.now() - t0) / 1000
    const cpuSeconds = (cpu.user + cpu.system) / 1e6
    requests = r.sim?.requests ?? 0
    simSeconds = r.seconds
    best = Math.max(best, requests / cpuSeconds)
    bestWall = Math.max(bestWall, requests / wall)
    // memory flatness: the heap's high-water mark in the second half of the run against the first
    const maxOf = (xs: number[]): number => (xs.length ? Math.max(...xs) : 0)
    const h = Math.floor(samples.length / 2)
    peakHeap = Math.max(peakHeap, maxOf(samples))
    growth = (maxOf(samples.slice(h)) - maxOf(samples.slice(0, h))) / 2 ** 20
  }
  const noop = rows.find((x) => x.name === c.name && x.device === c.device && x.scheduler === 'noop')
  rows.push({
    name: c.name,
    scheduler: c.scheduler,
    device: c.device,
    requests,
    simulatedSeconds: +simSeconds.toFixed(3),
    requestsPerSecond: Math.round(best),
    wallRequestsPerSecond: Math.round(bestWall),
    vsNoop: noop ? +(best / (noop.requestsPerSecond as number)).toFixed(2) : 1,
    peakMemoryMiB: +(process.memoryUsage().rss / 2 ** 20).toFixed(1),
    peakHeapMiB: +(peakHeap / 2 ** 20).toFixed(1),
    heapGrowthSecondHalfMiB: +growth.toFixed(1),
  })
  if (!json) {
    const x = rows[rows.length - 1]
    console.log(
      `${String(x.name).padEnd(32)} ${String(x.scheduler).padEnd(9)} ${String(x.device).padEnd(14)} ` +
        `${String(x.requests).padStart(9)} req ${String(x.requestsPerSecond).padStart(9)} req/s (×${x.vsNoop} noop; wall ${x.wallRequestsPerSecond})  ` +
        `rss ${x.peakMemoryMiB} MiB, heap ${x.peakHeapMiB} MiB (second half ${Number(x.heapGrowthSecondHalfMiB) >= 0 ? '+' : ''}${x.heapGrowthSecondHalfMiB})`,
    )
  }
}
if (json) console.log(JSON.stringify({ cases: rows }, null, 2))
