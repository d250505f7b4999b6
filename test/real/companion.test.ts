import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { companionDocument, companionHost } from '../../src/main/services/real/companion'
import type { HostCapture } from '../../src/main/services/real/host-capture'
import { resolveRealSpec } from '../../src/main/services/real/real-spec'

// The simulated companion of a real run simulates what the real rows ran on: their time limit and
// host (a fingerprint's captured host when the device is a fingerprinted preset, else this machine).
const doc = {
  name: 'rw',
  device: { preset: 'hdd-2003-ide' },
  host: { preset: 'linux-2003', overrides: { memoryMiB: 256 } },
  workload: {
    files: [{ name: 'f', size: '16M' }],
    processes: [{ name: 'reader', type: 'cat', params: { file: 'f', size: '16M' } }],
    stop: { processes: ['reader'], maxSeconds: 60 },
  },
  schedulers: ['noop', 'deadline'],
}
const capture: HostCapture = {
  preset: 'linux-modern',
  kernel: '6.12.9',
  overrides: { cpus: 2, memoryMiB: 4096, hz: 250 },
  sources: {},
}

describe('the simulated companion of a real run', () => {
  let dir = ''
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'companion-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('has the real rows’ time limit and host, and says it left the spec’s host', () => {
    const c = companionDocument(doc, { maxSeconds: 3, host: { capture, from: 'this machine, captured now' } })
    const r = resolveRealSpec(c.doc)
    if (!r.ok) throw new Error(JSON.stringify(r.issues))
    expect(r.spec.stop.maxSeconds).toBe(3)
    expect(r.spec.host.preset).toBe('linux-modern')
    expect(r.spec.host.values).toMatchObject({ cpus: 2, memoryMiB: 4096, hz: 250 })
    expect(c.notes.join()).toMatch(/not on the spec's linux-2003/)
    // the spec itself is left as it was
    expect(doc.workload.stop.maxSeconds).toBe(60)
  })

  it('keeps the spec’s own overrides of the same host preset, and its time limit when not overridden', () => {
    const same = { ...doc, host: { preset: 'linux-modern', overrides: { cpus: 8 } } }
    const c = companionDocument(same, { host: { capture, from: 'x', fingerprint: true } })
    const r = resolveRealSpec(c.doc)
    if (!r.ok) throw new Error(JSON.stringify(r.issues))
    expect(r.spec.host.values).toMatchObject({ cpus: 8, memoryMiB: 4096 })
    expect(r.spec.stop.maxSeconds).toBe(60)
    expect(c.notes).toEqual([])
  })

  it('says when the simulated rows model a device preset that is not a fingerprint of the real device', () => {
    const same = { ...doc, host: { preset: 'linux-modern' } }
    const c = companionDocument(same, { host: { capture, from: 'this machine, captured now' } })
    expect(c.notes).toHaveLength(1)
    expect(c.notes[0]).toMatch(/model the spec's device preset .*, not the real device: .*fingerprint/)
  })

  it('takes the host captured with a fingerprinted device preset; else captures this machine', () => {
    writeFileSync(
      join(dir, 'other.json'),
      JSON.stringify({ name: 'other', host: { ...capture, overrides: { cpus: 1 } } }),
    )
    writeFileSync(join(dir, 'fp.json'), JSON.stringify({ name: 'fp-vda', host: capture }))
    writeFileSync(join(dir, 'broken.json'), '{')
    expect(companionHost('fp-vda', dir)).toEqual({
      capture,
      from: 'the host captured with the fingerprint fp-vda',
      fingerprint: true,
    })
    const here = companionHost('hdd-2003-ide', dir)
    expect(here.from).toBe('this machine, captured now')
    expect(here.fingerprint).toBeUndefined()
    expect(here.capture.preset).toBe('linux-modern')
    expect(here.capture.overrides.cpus).toBeGreaterThan(0)
  })
})
