// One case of `npm run bench`, in a process of its own (bench/index.ts starts it): prints one JSON
// line with its figures. Runs `runs` times and keeps the best; the memory case runs once.
import { performance } from 'node:perf_hooks'
import { resolveSpec } from '../src/shared/experiment/validate'
import { simulate } from '../src/shared/experiment/runner'
import { benchCases } from './cases'
import { raiseInliningBudget } from '../src/main/workers/v8-inlining'

// as the run pool's simulation children do
raiseInliningBudget()

const [index, quick, runs] = process.argv.slice(2).map(Number)
const c = benchCases(quick === 1)[index]
const spec = resolveSpec(c.spec)
const memory = c.name.startsWith('memory')
const allSchedulers = c.measure === 'cpuSeconds'
// a time case is the best of at least five warm passes (issue 16's `flagship-warm`)
const repeat = memory ? 1 : allSchedulers ? Math.max(5, runs) : runs
let bestCpuSeconds = Infinity
let best = 0
let bestWall = 0
let requests = 0
let simSeconds = 0
let peakHeap = 0
let growth = 0
const maxOf = (xs: number[]): number => (xs.length ? Math.max(...xs) : 0)
for (let k = 0; k < repeat; k++) {
  // A clean heap for the memory case's figures. Not before a timed run: a full collection shrinks
  // the young generation, and the run then spends its first second in extra scavenges (~20 %).
  if (memory) globalThis.gc?.()
  const samples: number[] = []
  const t0 = performance.now()
  const c0 = process.cpuUsage()
  const progress = (): void => void samples.push(process.memoryUsage().heapUsed)
  const results = (allSchedulers ? spec.schedulers.map((_, i) => i) : [0]).map((i) =>
    simulate(spec, i, 0, { progress }),
  )
  const cpu = process.cpuUsage(c0)
  const wall = (performance.now() - t0) / 1000
  requests = results.reduce((a, r) => a + (r.sim?.requests ?? 0), 0)
  simSeconds = results.reduce((a, r) => a + r.seconds, 0)
  bestCpuSeconds = Math.min(bestCpuSeconds, (cpu.user + cpu.system) / 1e6)
  best = Math.max(best, requests / ((cpu.user + cpu.system) / 1e6))
  bestWall = Math.max(bestWall, requests / wall)
  // memory flatness: the heap's high-water mark in the second half of the run against the first
  const h = Math.floor(samples.length / 2)
  peakHeap = Math.max(peakHeap, maxOf(samples))
  growth = (maxOf(samples.slice(h)) - maxOf(samples.slice(0, h))) / 2 ** 20
}
console.log(
  JSON.stringify({
    name: c.name,
    scheduler: c.scheduler,
    device: c.device,
    ...(allSchedulers ? { cpuSeconds: +bestCpuSeconds.toFixed(3), schedulers: spec.schedulers.length } : {}),
    requests,
    simulatedSeconds: +simSeconds.toFixed(3),
    requestsPerSecond: Math.round(best),
    wallRequestsPerSecond: Math.round(bestWall),
    peakMemoryMiB: +(process.memoryUsage().rss / 2 ** 20).toFixed(1),
    peakHeapMiB: +(peakHeap / 2 ** 20).toFixed(1),
    heapGrowthSecondHalfMiB: +growth.toFixed(1),
  }),
)
