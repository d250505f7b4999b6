import { resolveSpec } from '../src/shared/experiment/validate'
import { simulate } from '../src/shared/experiment/runner'
const dev = process.argv[2] ?? 'ssd-sata-mlc'
const sched = process.argv[3] ?? 'noop'
const n = Number(process.argv[4] ?? 1000000)
const spec = resolveSpec({
  device: { preset: dev },
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
          size: `${n * 4}k`,
        },
      },
    ],
    stop: { maxSeconds: 1e6 },
  },
  schedulers: [sched],
})
const t0 = performance.now()
const r = simulate(spec, 0, 0)
const w = (performance.now() - t0) / 1000
console.log(
  dev,
  sched,
  r.sim,
  Math.round(r.sim!.requests / w),
  'req/s',
  'events/req',
  (r.sim!.events / r.sim!.requests).toFixed(2),
  'iops',
  Math.round(r.totals.readIops),
)
