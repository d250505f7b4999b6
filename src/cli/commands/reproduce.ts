import { parseArgs } from 'node:util'
import type { CliCommand } from '../command'
import { GalleryError, listGallery, loadGalleryEntry, reproduce } from '../../main/services/gallery-entries'
import type { ReproduceResult } from '../../main/services/gallery-entries'
import { ProgressBar } from '../progress'
import { reproduceReport } from '../reproduce-text'
import { InputError } from '../spec-file'
import { jsonDocument } from './run'

/** `iosched-lab reproduce NAME|--all [--json]`: simulated figures beside the published ones. */
export const reproduceCommand: CliCommand = {
  name: 'reproduce',
  usage: [
    'reproduce NAME [--json]             run a gallery entry: simulated beside published figures, a verdict per claim',
    'reproduce --all [--json]            every gallery entry',
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
    const results: ReproduceResult[] = []
    for (const name of names) {
      let loaded
      try {
        loaded = loadGalleryEntry(name)
      } catch (e) {
        if (e instanceof GalleryError) throw new InputError([e.message])
        throw e
      }
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
          values.all ? { schema: 'iosched-lab/reproduce-all@1', entries: docs } : docs[0],
          null,
          2,
        ),
      )
    } else io.out(results.map(reproduceReport).join('\n\n'))
    return results.every((r) => r.pass) ? 0 : 1
  },
}
