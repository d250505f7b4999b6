import { parseArgs } from 'node:util'
import type { CliCommand } from '../command'
import { GalleryError, listGallery, loadGalleryEntry, reproduce } from '../../main/services/gallery-entries'
import type { ReproduceResult } from '../../main/services/gallery-entries'
import { ProgressBar } from '../progress'
import { reproduceReport, reproduceTotals, reproduceTotalText } from '../reproduce-text'
import { InputError } from '../spec-file'
import { jsonDocument } from './run'

/**
 * `iosched-lab reproduce NAME|--all [--json]`: simulated figures beside the published ones. With
 * `--all`, a line on stderr as each entry starts, each entry's report as it ends, then the total.
 */
export const reproduceCommand: CliCommand = {
  name: 'reproduce',
  usage: [
    'reproduce NAME [--json]             run a gallery entry: simulated beside published figures, a verdict per claim',
    'reproduce --all [--json]            every gallery entry, then the claims that hold of all, per entry',
  ],
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { json: { type: 'boolean' }, all: { type: 'boolean' }, jobs: { type: 'string' } },
      allowPositionals: true,
    })
    if (values.all === positionals.length > 0 || positionals.length > 1)
      throw new InputError(['reproduce: name one gallery entry, or --all (see: iosched-lab gallery)'])
    const names = values.all ? listGallery().map((e) => e.name) : positionals
    const jobs = values.jobs === undefined ? undefined : Number(values.jobs)
    if (jobs !== undefined && !(Number.isInteger(jobs) && jobs >= 0))
      throw new InputError([`reproduce: --jobs expects a whole number ≥ 0, got "${values.jobs}"`])
    const results: ReproduceResult[] = []
    for (const [i, name] of names.entries()) {
      let loaded
      try {
        loaded = loadGalleryEntry(name)
      } catch (e) {
        if (e instanceof GalleryError) throw new InputError([e.message])
        throw e
      }
      if (values.all) io.err(`reproduce ${i + 1}/${names.length}: ${name}…`)
      const bar = new ProgressBar()
      let where = ''
      try {
        results.push(
          await reproduce(
            loaded,
            {
              variant: (id, value) => (where = value === undefined ? id : `${id} ${String(value)}`),
              progress: (label, _rep, f, s) => bar.update(`${where} ${label}`, f, s),
              failed: (label, _rep, m) => io.err(`run failed: ${where} ${label}: ${m}`),
            },
            { jobs },
          ),
        )
      } finally {
        bar.done()
      }
      if (!values.json) io.out(`${i > 0 ? '\n' : ''}${reproduceReport(results[i])}`)
    }
    if (values.json) {
      const docs = results.map((r) => ({
        ...r,
        variants: r.variants.map((v) => ({
          ...v,
          results: v.results.map((x) => ({ value: x.value, ...jsonDocument(x.experiment) })),
        })),
      }))
      io.out(
        JSON.stringify(
          values.all
            ? { schema: 'iosched-lab/reproduce-all@1', total: reproduceTotals(results), entries: docs }
            : docs[0],
          null,
          2,
        ),
      )
    } else if (values.all) io.out(`\n${reproduceTotalText(results)}`)
    return results.every((r) => r.pass) ? 0 : 1
  },
}
