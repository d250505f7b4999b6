import { readFileSync } from 'node:fs'
import { resolveSpec } from '../src/shared/experiment/validate'
import { simulate } from '../src/shared/experiment/runner'
const doc = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const spec = resolveSpec(doc)
for (let i = 0; i < spec.schedulers.length; i++) {
  const t0 = performance.now()
  const r = simulate(spec, i, 0)
  const w = (performance.now() - t0) / 1000
  console.log(r.label, r.sim, 'wall', w.toFixed(2), Math.round(r.sim!.requests / w), 'req/s', 'sim s', r.seconds.toFixed(1), r.processes.map((p) => `${p.name} ${p.seconds.toFixed(1)}s ${p.MBps.toFixed(2)}MB/s`).join(' | '), 'dev', r.totals.readMBps.toFixed(2), r.totals.writeMBps.toFixed(2))
}
