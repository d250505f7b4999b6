// The runs the lab makes to measure a device — a fingerprint's sweep and scheduler points, a
// validation's cells, the drift check — are untraced: tracing the block events of a heavy
// workload on two CPUs slowed the very figures they measure (real-experiment.ts MEASURING).
// Each is run here with a runner that notes the options it was given and stops the measurement
// there (no device is touched).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { ResolvedSpec } from '../../src/shared/experiment/resolved'
import type { RealExperimentOptions } from '../../src/main/services/real/real-experiment'
import { RealExperimentRunner } from '../../src/main/services/real/real-experiment'
import { fingerprintDevice } from '../../src/main/services/real/fingerprint'
import { validateDevice } from '../../src/main/services/real/validate'
import { checkDrift } from '../../src/main/services/real/drift-check'
import type { PresetDocument } from '../../src/main/services/real/fingerprint'

const STOP = 'stopped after noting the options'

class NotingRunner extends RealExperimentRunner {
  seen: RealExperimentOptions[] = []
  override run(_spec: ResolvedSpec, o: RealExperimentOptions = {}): never {
    this.seen.push(o)
    throw new Error(STOP)
  }
}

const dir = mkdtempSync(join(tmpdir(), 'iosched-measuring-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const preset = {
  schema: 'iosched-lab/device-preset@1',
  name: 'noted',
  model: 'virtual',
  basePreset: 'loop-dio-virtio',
  description: 'a loop device (test)',
  values: {},
  sources: {},
  measured: {
    target: { name: 'loop9', description: 'loop device /dev/loop9', sizeBytes: 256 << 20, rotational: true },
    seconds: 1,
    passes: 1,
    points: [{ name: 'qd1-randread', iops: 10_000, p50Ms: 0.08, p99Ms: 0.3, MBps: 40 }],
  },
  simulated: { points: [] },
  fit: {},
  residuals: {},
  specDevice: { preset: 'loop-dio-virtio', overrides: {} },
} as unknown as PresetDocument

describe('the runs that measure a device are not traced', () => {
  it("a fingerprint's sweep", async () => {
    const runner = new NotingRunner()
    await expect(fingerprintDevice({ runner, target: { kind: 'scratch' } })).rejects.toThrow(STOP)
    expect(runner.seen).toHaveLength(1)
    expect(runner.seen[0].trace).toBe(false)
  })

  it("a validation's cells", async () => {
    const file = join(dir, 'preset.json')
    writeFileSync(file, JSON.stringify(preset))
    const runner = new NotingRunner()
    await expect(
      validateDevice({ runner, presetFile: file, driftCheck: false, only: ['randread-qd1'], quick: true }),
    ).rejects.toThrow(STOP)
    expect(runner.seen).toHaveLength(1)
    expect(runner.seen[0].trace).toBe(false)
  })

  it('the drift check', async () => {
    const runner = new NotingRunner()
    await expect(checkDrift(preset, { runner })).rejects.toThrow(STOP)
    expect(runner.seen.map((o) => o.trace)).toEqual([false])
  })
})
