// `iosched-lab merge PART… --out RESULT.json`: the parts `sweep --shard K/N` wrote, one per shard,
// as the sweep's result — the same bytes as the sweep run unsharded. Parts of another sweep, of
// another lab version, a missing or repeated shard, or a file that is not a part are refused.
import { parseArgs } from 'node:util'
import { resolve } from 'node:path'
import { writeFileAtomic } from '../../main/services/library/atomic-write'
import { MergeError, mergeSweepParts, partFailures, sweepText } from '../../shared/api/sweep-shards'
import type { CliCommand } from '../command'
import { InputError, readJsonFile } from '../spec-file'
import { mergeContext } from '../sweep-definition'

export const mergeCommand: CliCommand = {
  name: 'merge',
  usage: ['merge PART.json… --out RESULT.json  the parts of a sharded sweep as its result (docs/sweeps.md)'],
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { out: { type: 'string', short: 'o' } },
      allowPositionals: true,
    })
    if (positionals.length === 0) throw new InputError(['merge: give the part files to merge'])
    if (values.out === undefined) throw new InputError(['merge: give --out RESULT.json'])
    const files = positionals.map((file) => ({ file, doc: readJsonFile(file) }))
    let doc
    try {
      doc = mergeSweepParts(files, mergeContext)
    } catch (e) {
      if (e instanceof MergeError) throw new InputError(e.lines.map((l) => `merge: ${l}`))
      throw e
    }
    await writeFileAtomic(resolve(values.out), sweepText(doc))
    const failures = partFailures(files)
    for (const f of failures)
      io.err(
        `run failed: ${f.label} #${f.repetition + 1} at ${doc.sweep.path} = ${JSON.stringify(doc.sweep.values[f.point])}: ${f.message}`,
      )
    const runs = doc.points.reduce((a, p) => a + p.result.runs.length, 0)
    io.out(
      `${values.out}: the sweep of ${doc.sweep.path} over ${doc.sweep.values.length} values, ${runs} runs from ${files.length} ${files.length === 1 ? 'part' : 'parts'}`,
    )
    return failures.length > 0 ? 1 : 0
  },
}
