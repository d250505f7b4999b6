// Refitting a saved fingerprint: a document fitted by the code fits again to the same values and
// host from what it kept (its measured points, the host as captured), whatever its fitted values
// say; a document without those is refused naming what it lacks and the file; and the command
// line's --refit saves the new document and leaves the saved one as it was.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PresetDocument } from '../../src/main/services/real/fingerprint-types'
import { RefitError, refitFingerprint } from '../../src/main/services/real/fingerprint-refit'
import { fingerprintCommand } from '../../src/cli/commands/fingerprint'
import { InputError } from '../../src/cli/spec-file'
import { fittedFingerprint } from '../helpers/fitted-fingerprint'

/** A document as a file holds it. */
const saved = (doc: PresetDocument): Record<string, unknown> => JSON.parse(JSON.stringify(doc))

let doc: PresetDocument
let dir: string
beforeAll(() => {
  doc = fittedFingerprint()
  dir = mkdtempSync(join(tmpdir(), 'iosched-refit-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('refitting a saved fingerprint', () => {
  it('fits a document the code fitted to the same values and host, from its points and captured host', () => {
    expect(doc.host!.overrides.schedCpuScale).toBeTypeOf('number')
    expect(doc.schedulerPoints).toHaveLength(1)
    // measured, not fitted: the host as the probe left it
    expect(doc.host!.overrides).toMatchObject({ idleWakeUs: 41, idleExitUs: 8.5 })
    expect(doc.host!.sources.idleWakeUs).toMatch(/^measured: .*sched_waking → sched_switch/)
    const s = saved(doc) as unknown as PresetDocument
    // what the fit gave is not what a refit starts from: spoil it
    s.values = { ...s.values, readServiceUs: '0:1, 100:2', readContentionUs: 77 }
    s.specDevice = { preset: 'ssd-sata-mlc', overrides: {} }
    s.host!.overrides = { ...s.host!.overrides, cpus: 8, syscallUs: 123, wakeUs: 45, idleWakeUs: 0 }
    delete s.host!.overrides.idleExitUs
    s.simulated = { points: [] }
    s.warnings = ['stale']
    const r = refitFingerprint(s, 'fp.json', new Date('2026-12-07T12:00:00Z'))
    expect(r.values).toEqual(doc.values)
    expect(r.sources).toEqual(doc.sources)
    expect(r.host).toEqual(doc.host)
    expect(r.specDevice).toEqual(doc.specDevice)
    expect(r.description).toBe(doc.description)
    expect(r.simulated).toEqual(doc.simulated)
    expect(r.warnings).toEqual(doc.warnings)
    expect(r.measured).toEqual(doc.measured)
    expect(r.capturedHost).toEqual(doc.capturedHost)
    // the scheduler point kept whole: its cost fit runs again, to the same point and distance
    expect(doc.schedulerPoints![0].fitted?.point.latency).toBeDefined()
    expect(r.schedulerPoints).toEqual(doc.schedulerPoints)
    expect(r.residuals).toEqual(doc.residuals)
    expect(r.fit).toEqual(doc.fit)
    expect(r.refitted).toEqual({
      at: '2026-12-07T12:00:00.000Z',
      from: 'fp.json',
      description: doc.description,
    })
  })

  it('keeps the cost fit of a document saved before the scheduler points were kept whole', () => {
    const s = saved(doc) as unknown as PresetDocument
    for (const x of s.schedulerPoints!) delete x.fitted
    // what the cost fit gave: kept as saved, though the fit would give it again
    s.host!.overrides = { ...s.host!.overrides, schedCpuScale: 2.5 }
    const r = refitFingerprint(s, 'fp.json')
    expect(r.host!.overrides.schedCpuScale).toBe(2.5)
    expect(r.values.schedulerPathUs).toEqual(doc.values.schedulerPathUs)
    // the scheduler point re-simulated and judged by its summary: no CDF distance for it
    for (const f of ['iops', 'p50', 'p99', 'noise'] as const)
      expect(r.residuals!['qd32-randread@mq-deadline'][f]).toBeTypeOf('number')
    expect(Object.keys(r.fit).sort()).toEqual(
      Object.keys(doc.fit)
        .filter((k) => !k.includes('@'))
        .sort(),
    )
  })

  it('refuses a document without the captured host or the measured points, naming what and the file', () => {
    const noHost = saved(doc)
    delete noHost.capturedHost
    expect(() => refitFingerprint(noHost, 'old-fp.json')).toThrow(RefitError)
    expect(() => refitFingerprint(noHost, 'old-fp.json')).toThrow(
      /^old-fp\.json: cannot refit: no "capturedHost"/,
    )
    const noPoints = saved(doc)
    delete (noPoints.measured as Record<string, unknown>).fitPoints
    expect(() => refitFingerprint(noPoints, 'old-fp.json')).toThrow(
      /^old-fp\.json: cannot refit: no "measured\.fitPoints"/,
    )
    expect(() => refitFingerprint({ schema: 'iosched-lab/validate@1' }, 'v.json')).toThrow(
      /v\.json: .*not a device preset/,
    )
  })

  it('saves the refit beside the saved fingerprint, or where --out says, leaving the saved one as it was', async () => {
    const file = join(dir, 'fp.json')
    const text = JSON.stringify(doc, null, 2) + '\n'
    writeFileSync(file, text)
    const before = statSync(file).mtimeMs
    const lines: string[] = []
    const io = { out: (s: string) => lines.push(s), err: (s: string) => lines.push(s) }
    const out = join(dir, 'sub', 'new.json')
    expect(await fingerprintCommand.run(['--refit', file, '--out', out, '--json'], io)).toBe(0)
    const written = JSON.parse(readFileSync(out, 'utf8')) as PresetDocument
    expect(written.values).toEqual(doc.values)
    expect(written.refitted?.from).toBe(file)
    expect(JSON.parse(lines.join('\n'))).toEqual(written)
    expect(await fingerprintCommand.run(['--refit', file], io)).toBe(0)
    const beside = JSON.parse(readFileSync(join(dir, 'fp.refit.json'), 'utf8')) as PresetDocument
    expect(beside.host).toEqual(doc.host)
    expect(lines.at(-2)).toBe(`saved: ${join(dir, 'fp.refit.json')} — simulate on it with this in a spec:`)
    expect(readFileSync(file, 'utf8')).toBe(text)
    expect(statSync(file).mtimeMs).toBe(before)
    await expect(fingerprintCommand.run(['--refit', file, '--seconds', '3'], io)).rejects.toThrow(InputError)
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, JSON.stringify({ ...doc, capturedHost: undefined }))
    await expect(fingerprintCommand.run(['--refit', bad], io)).rejects.toThrow(
      /bad\.json: cannot refit: no "capturedHost"/,
    )
  })
})
