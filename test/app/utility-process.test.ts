// The app's simulation children are Electron utility processes; without the Electron binary we test
// the two halves that are ours: the parent-side adapter (with a fake) and the child-side shim.
import { execFile } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { PassThrough } from 'node:stream'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { asChildProcess, utilitySpawner } from '../../src/main/utility-spawner'
import type { UtilityLike } from '../../src/main/utility-spawner'

function fakeUtility() {
  const e = new EventEmitter()
  const sent: unknown[] = []
  let killed = 0
  const u = Object.assign(e, {
    stderr: new PassThrough(),
    pid: undefined,
    postMessage: (m: unknown) => void sent.push(m),
    kill: () => {
      killed++
      setImmediate(() => e.emit('exit', 15))
      return true
    },
  }) as unknown as UtilityLike & EventEmitter
  return { u, sent, killed: () => killed }
}

describe('utility processes as run-pool children', () => {
  it('maps send, message, kill and exit onto the ChildProcess face the pool uses', async () => {
    const { u, sent, killed } = fakeUtility()
    const child = asChildProcess(u)
    const got: unknown[] = []
    child.on('message', (m) => got.push(m))
    u.emit('message', { type: 'ready' })
    child.send({ type: 'run' })
    expect(got).toEqual([{ type: 'ready' }])
    expect(sent).toEqual([{ type: 'run' }])
    const exit = new Promise((r) => child.on('exit', (code, signal) => r([code, signal])))
    expect(child.kill('SIGKILL')).toBe(true)
    await expect(exit).resolves.toEqual([null, 'SIGKILL'])
    expect(child.signalCode).toBe('SIGKILL')
    expect(child.kill('SIGKILL')).toBe(false)
    expect(killed()).toBe(1)
  })

  it('reports a crash with its exit code', async () => {
    const { u } = fakeUtility()
    const child = utilitySpawner(() => u)('/w.js')
    const exit = new Promise((r) => child.on('exit', (code, signal) => r([code, signal])))
    u.emit('exit', 3)
    await expect(exit).resolves.toEqual([3, null])
    expect(child.exitCode).toBe(3)
  })

  it('bridges parentPort to the worker inside the child: ready, run, progress, done', async () => {
    const harness = join(import.meta.dirname, 'utility-harness.ts')
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', harness])
    const types: string[] = JSON.parse(stdout.trim())
    expect(types[0]).toBe('ready')
    expect(types.at(-1)).toBe('done')
  })
})
