// `iosched-lab list | head -3`: the reader of the output goes away, and the command stops quietly —
// status 0, nothing on stderr — instead of an unhandled EPIPE's stack trace.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { expect, it } from 'vitest'

const bin = join(import.meta.dirname, '../../bin/iosched-lab.mjs')

it('stops quietly when the reader of its output goes away', async () => {
  const child = spawn(process.execPath, [bin, 'list'], { stdio: ['ignore', 'pipe', 'pipe'] })
  let err = ''
  child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s))
  // the reading end closed at once: the command's first write finds no reader (EPIPE) — what head
  // leaves behind after its lines, without the race of how much was written before it left
  child.stdout.destroy()
  const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)))
  expect(err).toBe('')
  expect(code).toBe(0)
}, 60_000)
