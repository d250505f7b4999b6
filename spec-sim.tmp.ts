import { readFileSync } from 'node:fs'
import { resolveSpec } from './src/shared/experiment/validate'
import { simulate } from './src/shared/experiment/runner'
const s = resolveSpec(JSON.parse(readFileSync(process.argv[2], 'utf8')))
for (let i = 0; i < s.schedulers.length; i++) {
  const r = simulate(s, i, 0)
  for (const p of r.processes) console.log(s.schedulers[i].name ?? s.schedulers[i], p.name.padEnd(10), (p.ops / p.seconds).toFixed(0).padStart(7), 'IOPS', (p.MBps).toFixed(1), 'MB/s p50', p.latencyMs.p50.toFixed(3), 'p99', p.latencyMs.p99.toFixed(3), 'cpu/io', ((p.cpuSeconds * 1e6) / p.ops).toFixed(2))
}
