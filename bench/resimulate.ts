// Re-simulate a saved validation (`iosched-lab validate --json --out V.json`) with the lab as it
// is now, against that validation's real runs: per cell the real mean, the simulated mean then and
// now; per pair of schedulers whose real difference had p < 0.05, whether the simulation orders it
// the same way now; and how far the simulated figures are from the real ones, as the median and
// mean |log(simulated / real)|; and the latency CDF distances against the real runs' histograms
// (reports that keep them: CdfCell.real), as validate reports them. A model change can be judged
// against real runs already taken, without measuring again.
//
//   npm run -s bench:resim -- V.json [--matrix FILE] [--refit FP.json] [--device JSON] [--host JSON]
//                                    [--reps N] [--only ID,…] [--schedulers A,B,…] [--quantiles]
// --matrix: the workloads the validation ran, when not the built-in matrix (validate --matrix).
// --refit: the fingerprint the validation ran on (its preset), fitted again with the code as it is
// (fingerprint-refit.ts), and its device and host simulated instead of the report's: a model change
// judged with the preset it would fit, not the one the old code fitted.
// --quantiles: per CDF cell also the real and simulated p1, p10, p50, p90, p99 and mean (µs), to
// see whether a distance comes from a shift of the whole distribution or from its spread or tail.
// --device, --host: parameter overrides on the report's preset, e.g. --device '{"irqCompleteUs":1.3}'.
import { readFileSync } from 'node:fs'
import { refitFingerprint } from '../src/main/services/real/fingerprint-refit'
import { parseArgs } from 'node:util'
import { simulate } from '../src/shared/experiment/runner'
import { rmsCdfDistance } from '../src/shared/metrics/cdf-distance'
import { LatencyHistogram } from '../src/shared/metrics/histogram'
import { median as medianOf } from '../src/shared/metrics/stats'
import { resolveSpec } from '../src/shared/experiment/validate'
import { VALIDATE_MATRIX, validateSpec } from '../src/shared/validate/matrix'
import type { ValidateWorkload } from '../src/shared/validate/matrix'
import { parseValidateMatrix } from '../src/shared/validate/matrix-file'
import type { ValidateReport } from '../src/shared/validate/report'
import type { ParamValues } from '../src/shared/util/params'

type Metric = 'MBps' | 'p99Ms'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    matrix: { type: 'string' },
    refit: { type: 'string' },
    device: { type: 'string' },
    host: { type: 'string' },
    reps: { type: 'string' },
    only: { type: 'string' },
    schedulers: { type: 'string' },
    quantiles: { type: 'boolean' },
  },
})
if (positionals.length !== 1) {
  console.error(
    'usage: bench:resim -- V.json [--matrix FILE] [--refit FP.json] [--device JSON] [--host JSON] [--reps N] [--only ID,…] [--quantiles]',
  )
  process.exit(2)
}
const json = (text: string | undefined, what: string): ParamValues => {
  try {
    return text ? (JSON.parse(text) as ParamValues) : {}
  } catch (e) {
    throw new Error(`${what}: not JSON (${(e as Error).message})`)
  }
}
const report = JSON.parse(readFileSync(positionals[0], 'utf8')) as ValidateReport
if (report.schema !== 'iosched-lab/validate@1') throw new Error(`${positionals[0]}: not a validate report`)
let matrix: readonly ValidateWorkload[] = VALIDATE_MATRIX
if (values.matrix) {
  const parsed = parseValidateMatrix(JSON.parse(readFileSync(values.matrix, 'utf8')))
  if (!parsed.ok) throw new Error(`${values.matrix}: ${parsed.problems.join('; ')}`)
  matrix = parsed.workloads
}
const reps = Math.max(1, Number(values.reps ?? 3))
const only = values.only?.split(',')
let preset: Pick<ValidateReport['preset'], 'device' | 'host'> = report.preset
if (values.refit) {
  const fp = refitFingerprint(JSON.parse(readFileSync(values.refit, 'utf8')), values.refit)
  if (!fp.host) throw new Error(`${values.refit}: the refitted fingerprint has no host`)
  const other = (now: ParamValues, was: ParamValues): string => {
    const ks = Object.keys(now).filter((k) => JSON.stringify(now[k]) !== JSON.stringify(was[k]))
    return `${ks.length} value${ks.length === 1 ? '' : 's'} other than the report's${ks.length ? `: ${ks.join(', ')}` : ''}`
  }
  console.log(
    `refitted ${values.refit} with the code as it is: re-simulating on its device (${fp.basePreset}, ${other(fp.values, report.preset.device.overrides)}) and its host (${other(fp.host.overrides, report.preset.host.overrides)})`,
  )
  preset = {
    device: { preset: fp.basePreset, overrides: fp.values },
    host: { preset: fp.host.preset, overrides: fp.host.overrides },
  }
}
const device = {
  ...preset.device,
  overrides: { ...preset.device.overrides, ...json(values.device, '--device') },
}
const host = {
  ...preset.host,
  overrides: { ...preset.host.overrides, ...json(values.host, '--host') },
}
const schedulers = values.schedulers?.split(',') ?? report.schedulers
const logs: Record<Metric, { was: number[]; now: number[] }> = {
  MBps: { was: [], now: [] },
  p99Ms: { was: [], now: [] },
}
const cdfs = { was: [] as number[], now: [] as number[] }
const order = { same: 0, opposite: 0, tie: 0 }
const separable = { same: 0, all: 0 }

for (const w of report.workloads) {
  if (only && !only.includes(w.id)) continue
  const m = matrix.find((x) => x.id === w.id)
  if (!m) {
    console.log(`## ${w.id}: not in the matrix (pass the one the validation ran with --matrix)`)
    continue
  }
  const spec = resolveSpec(
    validateSpec(m, {
      device,
      host,
      schedulers,
      seconds: report.options.seconds,
      regionBytes: 256 * 2 ** 20,
      repetitions: reps,
      cvPercent: report.options.cvPercent,
      maxRepetitions: reps,
    }),
  )
  // per scheduler and process (a numjobs group summed), the mean over the repetitions
  const sim: Record<string, Record<string, Record<Metric, number>>> = {}
  // per scheduler and process, the latencies of every repetition merged
  const lat: Record<string, Record<string, LatencyHistogram>> = {}
  spec.schedulers.forEach((s, k) => {
    const acc: Record<string, Record<Metric, number>> = {}
    const hs: Record<string, LatencyHistogram> = (lat[s.label] = {})
    for (let r = 0; r < reps; r++) {
      const per: Record<string, Record<Metric, number>> = {}
      for (const p of simulate(spec, k, r, { why: false }).processes) {
        const name = p.name.replace(/\/\d+$/, '')
        const e = (per[name] ??= { MBps: 0, p99Ms: 0 })
        e.MBps += p.MBps
        e.p99Ms = Math.max(e.p99Ms, p.latencyMs.p99)
        ;(hs[name] ??= new LatencyHistogram()).merge(LatencyHistogram.fromJSON(p.latency))
      }
      for (const [n, e] of Object.entries(per)) {
        const a = (acc[n] ??= { MBps: 0, p99Ms: 0 })
        a.MBps += e.MBps / reps
        a.p99Ms += e.p99Ms / reps
      }
    }
    sim[s.label] = acc
  })
  console.log(`## ${w.id}`)
  for (const c of w.cells) {
    const now = sim[c.scheduler]?.[c.process]?.[c.metric as Metric]
    if (now === undefined) continue
    const real = c.real.mean
    console.log(
      `  ${c.process.padEnd(10)} ${c.metric.padEnd(6)} ${c.scheduler.padEnd(12)} real ${real.toFixed(3).padStart(9)} ±${(c.real.ci95 || 0).toFixed(3)}  was ${c.simulated.mean.toFixed(3).padStart(9)}  now ${now.toFixed(3).padStart(9)}  ratio ${(now / real).toFixed(2)}`,
    )
    const l = logs[c.metric as Metric]
    if (l && real > 0 && now > 0 && c.simulated.mean > 0) {
      l.was.push(Math.abs(Math.log(c.simulated.mean / real)))
      l.now.push(Math.abs(Math.log(now / real)))
    }
  }
  for (const c of w.cdf) {
    const h = lat[c.scheduler]?.[c.process]
    if (!c.real || !h) continue
    const d = rmsCdfDistance(c.real, h.toJSON())
    console.log(
      `  cdf ${c.process.padEnd(10)} ${c.scheduler.padEnd(12)} was ${(c.relative * 100).toFixed(1).padStart(6)} %  now ${(d.relative * 100).toFixed(1).padStart(6)} %`,
    )
    if (values.quantiles) {
      const shape = (x: LatencyHistogram): string =>
        [1, 10, 50, 90, 99].map((q) => (x.percentile(q) / 1e3).toFixed(0).padStart(6)).join('') +
        `  mean ${(x.mean / 1e3).toFixed(0).padStart(6)}`
      console.log(`      real µs ${shape(LatencyHistogram.fromJSON(c.real))}`)
      console.log(`      sim  µs ${shape(h)}`)
    }
    if (Number.isFinite(c.relative) && Number.isFinite(d.relative)) {
      cdfs.was.push(c.relative)
      cdfs.now.push(d.relative)
    }
  }
  for (const p of w.pairs) {
    const a = sim[p.a]?.[p.process]?.[p.metric as Metric]
    const b = sim[p.b]?.[p.process]?.[p.metric as Metric]
    if (a === undefined || b === undefined || !(p.p < 0.05 || p.separable)) continue
    // `a` is the scheduler with the higher real figure: the same order if it is higher simulated
    const d = (a - b) / Math.max(Math.abs(a), 1e-12)
    const o = Math.abs(d) < 0.01 ? 'tie' : d > 0 ? 'same' : 'opposite'
    if (p.p < 0.05) order[o]++
    if (p.separable) {
      separable.all++
      if (o === 'same') separable.same++
    }
    console.log(
      `  pair ${p.process} ${p.metric} ${p.a}>${p.b} real ${(p.realDifference * 100).toFixed(1)}% p=${p.p.toFixed(3)}${p.separable ? ' separable' : ''}  was ${p.simulated}  now ${o} (${(d * 100).toFixed(1)}%)`,
    )
  }
}
const median = (xs: number[]): number => {
  const s = [...xs].sort((x, y) => x - y)
  return s.length ? s[Math.floor(s.length / 2)] : NaN
}
const mean = (xs: number[]): number => xs.reduce((x, y) => x + y, 0) / Math.max(1, xs.length)
console.log('')
for (const k of ['MBps', 'p99Ms'] as const) {
  const l = logs[k]
  console.log(
    `${k}: |log(simulated/real)| over ${l.now.length} cells: median ${median(l.was).toFixed(3)} then, ${median(l.now).toFixed(3)} now; mean ${mean(l.was).toFixed(3)} then, ${mean(l.now).toFixed(3)} now`,
  )
}
console.log(
  `pairs with p < 0.05: ${order.same} the same way, ${order.opposite} the opposite way, ${order.tie} tied (within 1 %); separable pairs ordered: ${separable.same} of ${separable.all}`,
)
if (cdfs.now.length > 0)
  console.log(
    `latency CDF distance ÷ the real mean over ${cdfs.now.length} cells: median ${(medianOf(cdfs.was) * 100).toFixed(1)} % then, ${(medianOf(cdfs.now) * 100).toFixed(1)} % now`,
  )
else
  console.log('latency CDF distances: none (the report keeps no real histograms: made before they were kept)')
