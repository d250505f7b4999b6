import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { startLabServer } from '../../main/server/lab-server'
import { LabService } from '../../main/services/lab-service'
import { defaultLibraryFolder } from '../../main/services/sessions'
import { repairAtStart } from '../../main/services/real/startup-repair'
import { labStateDir } from '../../main/services/real/state-dir'
import { packageRoot } from '../../main/services/package-root'
import type { CliCommand } from '../command'
import { InputError } from '../spec-file'

/** Serve the lab to a browser until interrupted; resolves with the exit status. */
export const serveCommand: CliCommand = {
  name: 'serve',
  usage: [
    'serve [--port N] [--host ADDR]         the lab in a browser: prints a URL with an access token',
    '      [--library DIR] [--renderer DIR]  sessions folder; the built renderer (default out/renderer)',
  ],
  async run(args, io) {
    const { values } = parseArgs({
      args,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        library: { type: 'string' },
        renderer: { type: 'string' },
        jobs: { type: 'string' },
      },
      allowPositionals: false,
    })
    const port = values.port === undefined ? 0 : Number(values.port)
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new InputError([`serve: --port expects 0…65535, got "${values.port}"`])
    const parallel = values.jobs === undefined ? undefined : Number(values.jobs)
    if (parallel !== undefined && !(Number.isInteger(parallel) && parallel >= 1))
      throw new InputError([`serve: --jobs expects a whole number ≥ 1, got "${values.jobs}"`])
    const root = packageRoot()
    const rendererDir = resolve(values.renderer ?? join(root, 'out/renderer'))
    if (!existsSync(join(rendererDir, 'index.html')))
      throw new InputError([`serve: no built renderer in ${rendererDir}: run \`npm run build\` first`])
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
    // journals of lab processes that crashed mid-run: their devices are put back before anything else
    const startupRepair = repairAtStart(labStateDir())
    const lab = new LabService({
      examplesDir: join(root, 'examples'),
      libraryDir: resolve(values.library ?? defaultLibraryFolder()),
      appVersion: pkg.version,
      parallel,
      real: { startupRepair },
    })
    const host = values.host ?? '127.0.0.1'
    const server = await startLabServer({ lab, rendererDir, host, port })
    // the simulation children start and compile their code now, not when Run is first pressed
    lab.warmUp()
    const folder = (await lab.library()).folder
    io.out(`IOSched Lab is served at:\n\n    ${server.url}\n\nsessions: ${folder}`)
    const repaired = await startupRepair
    for (const a of repaired.actions) io.err(`serve: repaired after an earlier crash: ${a}`)
    for (const p of [...repaired.problems, ...repaired.pending]) io.err(`serve: ${p}`)
    if (!host.startsWith('127.') && host !== 'localhost' && host !== '::1')
      io.err(`serve: listening on ${host}: anyone who can reach it and has the URL can use the lab`)
    io.out('Press Ctrl+C to stop.')
    await new Promise<void>((done) => {
      const stop = (): void => {
        process.off('SIGINT', stop)
        process.off('SIGTERM', stop)
        // real runs are cancelled and their devices restored before the host goes
        void lab
          .disposeAndWait()
          .then(() => server.close())
          .then(done)
      }
      process.once('SIGINT', stop)
      process.once('SIGTERM', stop)
    })
    return 0
  },
}
