import { parseArgs } from 'node:util'
import type { CliCommand } from '../command'
import { GalleryError, listGallery, loadGalleryEntry } from '../../main/services/gallery-entries'
import { InputError } from '../spec-file'
import { renderTable } from '../table'

/** `iosched-lab gallery [NAME] [--json]`: the ready experiments, or one entry's page. */
export const galleryCommand: CliCommand = {
  name: 'gallery',
  usage: ['gallery [NAME] [--json]              the built-in experiments; with NAME, its page and variants'],
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { json: { type: 'boolean' } },
      allowPositionals: true,
    })
    try {
      if (positionals.length === 0) {
        const list = listGallery()
        if (values.json) io.out(JSON.stringify(list, null, 2))
        else
          io.out(
            renderTable(
              ['name', 'title'],
              list.map((e) => [e.name, e.title]),
              ['l', 'l'],
            ) + '\n\nrun one: iosched-lab reproduce NAME   (all: iosched-lab reproduce --all)',
          )
        return 0
      }
      const { entry, page } = loadGalleryEntry(positionals[0])
      if (values.json) io.out(JSON.stringify({ ...entry, page }, null, 2))
      else
        io.out(`${page.trim()}\n\nvariants: ${entry.variants.map((v) => `${v.id} (${v.title})`).join('; ')}`)
      return 0
    } catch (e) {
      if (e instanceof GalleryError) throw new InputError([e.message])
      throw e
    }
  },
}
