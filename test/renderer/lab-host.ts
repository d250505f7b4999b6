// The app as the end-to-end tests see it: a fresh production build, served by the browser host
// with a lab service whose simulations run in the bundled worker, and a temporary library.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startLabServer } from '../../src/main/server/lab-server'
import type { LabServer } from '../../src/main/server/lab-server'
import { LabService } from '../../src/main/services/lab-service'
import type { LabServiceOptions } from '../../src/main/services/lab-service'
import { buildApp } from '../build/build-app'

export interface LabHost {
  server: LabServer
  lab: LabService
  library: string
  close(): Promise<void>
}

/** `options` are added to the service's (e.g. what was repaired at start). */
export async function startLabHost(options: Partial<LabServiceOptions> = {}): Promise<LabHost> {
  const out = await buildApp()
  const library = await mkdtemp(join(tmpdir(), 'iosched-e2e-lib-'))
  const lab = new LabService({
    examplesDir: join(import.meta.dirname, '../../examples'),
    libraryDir: library,
    appVersion: 'e2e',
    workerPath: join(out, 'main/workers/simulate.js'),
    ...options,
  })
  const server = await startLabServer({ lab, rendererDir: join(out, 'renderer') })
  // as the app and `serve` do: the simulation children start and warm up at once
  lab.warmUp()
  return {
    server,
    lab,
    library,
    async close() {
      lab.dispose()
      await server.close()
      await rm(out, { recursive: true, force: true })
      await rm(library, { recursive: true, force: true })
    },
  }
}
