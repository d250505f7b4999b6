// `iosched-lab sweep SPEC.json --param PATH --values … [--shard K/N] --out FILE`: one parameter
// varied over values, every point × scheduler × repetition in the run pool with progress and the
// time left; the sweep's result, or with --shard the part of it that shard K of N runs
// (docs/sweeps.md). The unsharded result goes through the same merge as parts do, so both are
// the same bytes.
import { parseArgs } from 'node:util'
import { resolve } from 'node:path'
import { writeFileAtomic } from '../../main/services/library/atomic-write'
import { mergeSweepParts, parseShard, sweepText } from '../../shared/api/sweep-shards'
import type { Shard } from '../../shared/api/sweep-shards'
import { estimateWork } from '../../shared/experiment/work-estimate'
import { beyondLimits, workExcesses } from '../../shared/experiment/work-limits'
import type { CliCommand } from '../command'
import { InputError } from '../spec-file'
import {
  definitionHash,
  labVersion,
  loadDefinition,
  mergeContext,
  parseValues,
  resolvePoints,
} from '../sweep-definition'
import { SweepProgress } from '../sweep-progress'
import { partDocument, runShard, shardUnits } from '../sweep-run'

export const sweepCommand: CliCommand = {
  name: 'sweep',
  usage: [
    'sweep SPEC.json --param PATH --values V1,V2,… --out FILE',
    '                                    vary one parameter: every value × scheduler × repetition (docs/sweeps.md)',
    '      [--shard K/N]                 only shard K of N, written as a part for `merge`',
    '      [--jobs N] [--no-why] [--allow-large]   as for run',
  ],
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        param: { type: 'string' },
        values: { type: 'string' },
        shard: { type: 'string' },
        jobs: { type: 'string' },
        out: { type: 'string', short: 'o' },
        'no-why': { type: 'boolean' },
        'allow-large': { type: 'boolean' },
      },
      allowPositionals: true,
    })
    if (positionals.length !== 1)
      throw new InputError([`sweep: expected one spec file, got ${positionals.length}`])
    const missing = (['param', 'values', 'out'] as const).filter((k) => values[k] === undefined)
    if (missing.length)
      throw new InputError([`sweep: give ${missing.map((k) => `--${k}`).join(', ')} (iosched-lab help)`])
    let shard: Shard | null = null
    if (values.shard !== undefined) {
      const s = parseShard(values.shard)
      if (typeof s === 'string') throw new InputError([`sweep: --shard: ${s}`])
      shard = s
    }
    let jobs: number | undefined
    if (values.jobs !== undefined) {
      jobs = Number(values.jobs)
      if (!Number.isInteger(jobs) || jobs < 0)
        throw new InputError([`sweep: --jobs expects a whole number ≥ 0, got "${values.jobs}"`])
    }
    const file = positionals[0]
    const def = loadDefinition(file, values.param!, parseValues(values.values!), !values['no-why'])
    const specs = resolvePoints(def, file)
    // the whole sweep's work: its shards' results come together in one merge
    const over = workExcesses(estimateWork(specs))
    if (over.length > 0 && !values['allow-large'])
      throw new InputError(beyondLimits(over, 'run it anyway with --allow-large').map((l) => `${file}: ${l}`))

    const which = shard ?? { index: 1, count: 1 }
    const total = shardUnits(specs, which).length
    const progress = new SweepProgress(total, shard ? `sweep shard ${shard.index}/${shard.count}` : 'sweep')
    const abort = new AbortController()
    const stop = (): void => {
      abort.abort()
      progress.end()
      io.err('cancelled')
      process.exit(130)
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    let ran
    try {
      ran = await runShard(
        def,
        specs,
        which,
        { progress: (u, f) => progress.progress(u, f), settled: (u, ok) => progress.done(u, ok) },
        { jobs, signal: abort.signal },
      )
    } finally {
      progress.end()
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
    }
    const part = partDocument(def, labVersion(), definitionHash(def), ran)
    // unsharded: the one part merged, through its JSON as a part file would be read
    const doc = shard
      ? part
      : mergeSweepParts([{ file: 'sweep', doc: JSON.parse(sweepText(part)) }], mergeContext)
    const out = resolve(values.out!)
    await writeFileAtomic(out, sweepText(doc))
    for (const f of ran.failures)
      io.err(
        `run failed: ${f.label} #${f.repetition + 1} at ${def.sweep.path} = ${JSON.stringify(def.sweep.values[f.point])}: ${f.message}`,
      )
    io.out(
      shard
        ? `${values.out}: shard ${shard.index}/${shard.count} of the sweep of ${def.sweep.path} over ${def.sweep.values.length} values: ${ran.runs.length} of ${total} runs (merge every part with iosched-lab merge)`
        : `${values.out}: the sweep of ${def.sweep.path} over ${def.sweep.values.length} values: ${ran.runs.length} of ${total} runs`,
    )
    return ran.failures.length > 0 ? 1 : 0
  },
}
