// The simulation child's program and how Node starts it (the CLI, the browser host and the tests;
// the app starts the same program as an Electron utility process). Either the bundled worker of a
// build, or — running from the TypeScript sources — workers/simulate.ts through tsx, whose loader
// is named by its absolute URL: Node resolves a bare `--import tsx` from the working directory,
// which would fail anywhere but the checkout's root.
import { fork } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * The worker next to this code: `../workers/simulate.ts` in the sources; in a build this code sits
 * in the bundle's main/ folder or in main/chunks/, and the worker is main/workers/simulate.js.
 */
export function simulationWorkerPath(here: string = import.meta.url): string {
  if (here.endsWith('.ts')) return fileURLToPath(new URL('../workers/simulate.ts', here))
  const candidates = ['./workers/simulate.js', '../workers/simulate.js'].map((r) =>
    fileURLToPath(new URL(r, here)),
  )
  return candidates.find((p) => existsSync(p)) ?? candidates[0]
}

/** Node options that let a child run `path`: tsx's loader, by absolute URL, for TypeScript. */
export function execArgvFor(path: string): string[] {
  if (!path.endsWith('.ts')) return []
  const loader = createRequire(import.meta.url).resolve('tsx')
  return ['--import', pathToFileURL(loader).href]
}

/** Start a simulation child with Node's fork: IPC with structured clone, stderr kept for errors. */
export function forkSimulation(path: string): ChildProcess {
  return fork(path, [], {
    execArgv: execArgvFor(path),
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'advanced',
  })
}
