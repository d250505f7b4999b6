import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { parseSize } from '../../shared/util/params'
import { fingerprintDevice } from '../../main/services/real/fingerprint'
import { RefitError, refitFingerprint } from '../../main/services/real/fingerprint-refit'
import { writeFileAtomic } from '../../main/services/library/atomic-write'
import type { PresetDocument } from '../../main/services/real/fingerprint'
import { realPrerequisiteProblems } from '../../main/services/real/prerequisites'
import { RealExperimentRunner, RealRunError } from '../../main/services/real/real-experiment'
import { userPresetDir } from '../../main/services/user-presets'
import { TargetRefused } from '../../main/services/real/target'
import type { CliCommand, CliIo } from '../command'
import { InputError } from '../spec-file'
import { num, renderTable } from '../table'

export const fingerprintCommand: CliCommand = {
  name: 'fingerprint',
  usage: [
    'fingerprint [--device DEV --confirm DEV] [--seconds S] [--passes N] [--out FILE] [--json]',
    '                                    measure a device (QD1/QD32 4 KiB random, 1 MiB sequential), fit a model, save a preset (root)',
    'fingerprint --refit FP.json [--out FILE] [--json]',
    '                                    fit a saved fingerprint again from its measured points with the model as it is now (no',
    '                                    measuring); saved to FILE, by default FP.refit.json beside it (never over FP.json unless named)',
  ],
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        device: { type: 'string' },
        confirm: { type: 'string' },
        'scratch-size': { type: 'string' },
        seconds: { type: 'string' },
        passes: { type: 'string' },
        region: { type: 'string' },
        name: { type: 'string' },
        out: { type: 'string' },
        json: { type: 'boolean' },
        refit: { type: 'string' },
      },
      allowPositionals: true,
    })
    if (positionals.length > 0) throw new InputError([`fingerprint: unexpected argument "${positionals[0]}"`])
    if (values.refit !== undefined) {
      const measuring = ['device', 'confirm', 'scratch-size', 'seconds', 'passes', 'region', 'name'] as const
      const other = measuring.find((k) => values[k] !== undefined)
      if (other)
        throw new InputError([`fingerprint: --refit measures nothing: --${other} does not go with it`])
      return refit(values.refit, values.out, values.json ?? false, io)
    }
    const seconds = values.seconds === undefined ? 3 : Number(values.seconds)
    if (!(seconds > 0 && seconds <= 600))
      throw new InputError([`fingerprint: --seconds expects 0 < S ≤ 600, got "${values.seconds}"`])
    const passes = values.passes === undefined ? 3 : Number(values.passes)
    if (!(Number.isInteger(passes) && passes >= 1 && passes <= 20))
      throw new InputError([`fingerprint: --passes expects a whole number 1 … 20, got "${values.passes}"`])
    const size = (v: string | undefined, what: string): number | undefined => {
      if (v === undefined) return undefined
      const n = parseSize(v)
      if (!(n > 0)) throw new InputError([`fingerprint: ${what} expects a size like 256M or 4G, got "${v}"`])
      return n
    }
    const problems = realPrerequisiteProblems()
    if (problems.length > 0) {
      for (const p of problems) io.err(`iosched-lab: ${p}`)
      return 1
    }
    const name = values.name
    const out = values.out ?? join(userPresetDir(), `${name ?? 'fingerprint'}-${Date.now()}.json`)
    const runner = new RealExperimentRunner()
    const stop = (): void => {
      io.err('iosched-lab: cancelling: stopping fio and restoring the scheduler…')
      void runner.cancel().finally(() => process.exit(130))
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
    let doc
    try {
      doc = await fingerprintDevice(
        {
          target: values.device
            ? { kind: 'device', name: values.device, confirm: values.confirm }
            : { kind: 'scratch', sizeBytes: size(values['scratch-size'], '--scratch-size') },
          seconds,
          passes,
          regionBytes: size(values.region, '--region'),
          name,
          out,
          runner,
        },
        {
          notice: (m) => io.err(`iosched-lab: ${m}`),
          failed: (_l, _r, m) => io.err(`iosched-lab: the sweep failed: ${m}`),
        },
      )
    } catch (e) {
      if (e instanceof TargetRefused || e instanceof RealRunError) throw new InputError(e.message.split('\n'))
      throw e
    } finally {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
    }
    printDocument(doc, out, values.json ?? false, io)
    return 0
  },
}

/** Fit the fingerprint saved in `file` again, save it to `out` (atomically) and print it. */
async function refit(file: string, out: string | undefined, json: boolean, io: CliIo): Promise<number> {
  let saved: unknown
  try {
    saved = JSON.parse(readFileSync(file, 'utf8'))
  } catch (e) {
    throw new InputError([`fingerprint: cannot read ${file}: ${(e as Error).message}`])
  }
  // beside it, never over it unless --out names it
  const to = out ?? file.replace(/(\.json)?$/i, '.refit.json')
  let doc: PresetDocument
  try {
    doc = refitFingerprint(saved, file)
  } catch (e) {
    if (e instanceof RefitError) throw new InputError([`fingerprint: ${e.message}`])
    throw e
  }
  await writeFileAtomic(to, JSON.stringify(doc, null, 2) + '\n')
  printDocument(doc, to, json, io)
  return 0
}

/** A fitted document: as JSON, or its points, values and host as tables, and where it was saved. */
function printDocument(doc: PresetDocument, out: string, json: boolean, io: CliIo): void {
  if (json) {
    io.out(JSON.stringify(doc, null, 2))
    return
  }
  io.out(`${doc.name}: ${doc.description}`)
  if (doc.refitted)
    io.out(`refitted ${doc.refitted.at} from ${doc.refitted.from} (was: ${doc.refitted.description})`)
  io.out('')
  const pairs = [
    ...doc.measured.points.map((m) => ({
      name: m.name as string,
      m,
      s: doc.simulated.points.find((x) => x.name === m.name),
    })),
    ...(doc.schedulerPoints ?? []).map((x) => ({
      name: `qd32-randread@${x.scheduler}`,
      m: x.measured,
      s: x.simulated,
    })),
  ]
  const rows = pairs.map(({ name, m, s }) => {
    const f = doc.fit[name]
    return [
      name,
      num(m.iops),
      num(m.MBps),
      `${num(m.p50Ms)}/${num(m.p99Ms)}`,
      s ? `${num(s.p50Ms)}/${num(s.p99Ms)}` : '-',
      f ? `${num(f.ms)} ms (${num(f.relative * 100, 2)} %)` : '-',
      residual(doc.residuals?.[name]),
    ]
  })
  io.out(
    renderTable(
      [
        'point',
        'IOPS',
        'MB/s',
        'measured p50/p99 ms',
        'model p50/p99 ms',
        'CDF RMS distance',
        'model − measured (noise)',
      ],
      rows,
      ['l'],
    ),
  )
  for (const w of doc.warnings ?? []) io.err(`iosched-lab: warning: ${w}`)
  io.out('')
  io.out(`${doc.model} model, from preset ${doc.basePreset}:`)
  for (const [k, v] of Object.entries(doc.values))
    io.out(`  ${k} = ${v}${doc.sources[k] ? `   (${doc.sources[k]})` : ''}`)
  if (doc.host) {
    io.out('')
    io.out(`this machine as a host (${doc.host.kernel}), over preset ${doc.host.preset}:`)
    for (const [k, v] of Object.entries(doc.host.overrides))
      io.out(`  ${k} = ${v}${doc.host.sources[k] ? `   (${doc.host.sources[k]})` : ''}`)
  }
  io.out('')
  io.out(`saved: ${out} — simulate on it with this in a spec:`)
  io.out(`  "device": ${JSON.stringify(doc.specDevice)}`)
}

/** "IOPS +3.1 %, p50 −2 % (noise 5 %) ok" for one point. */
function residual(
  r: PresetDocument['residuals'] extends Record<string, infer R> | undefined ? R | undefined : never,
): string {
  if (!r) return '-'
  const p = (x: number): string => `${x > 0 ? '+' : ''}${num(x * 100, 2)} %`
  return `IOPS ${p(r.iops)}, p50 ${p(r.p50)} (${num(r.noise * 100, 2)} %)${r.ok ? '' : ' OFF'}`
}
