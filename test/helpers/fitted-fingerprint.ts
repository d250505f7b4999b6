// A fingerprint as the code fits it, of a sweep "measured" by simulating a device: what tests of
// refitting a fingerprint, or fitting it again over a validation's span, start from.
import { simulate } from '../../src/shared/experiment/runner'
import { resolveSpec } from '../../src/shared/experiment/validate'
import type { ParamValues } from '../../src/shared/util/params'
import { fitPointOf } from '../../src/main/services/real/fingerprint-passes'
import { schedulerSweepSpec, sweepSpec } from '../../src/main/services/real/fingerprint-sweep'
import { fitSweep } from '../../src/main/services/real/fingerprint-document'
import type { PresetDocument } from '../../src/main/services/real/fingerprint-types'
import type { FitPoint } from '../../src/main/services/real/fit-virtual'
import type { HostCapture } from '../../src/main/services/real/host-capture'
import { idleWakeHost } from '../../src/main/services/real/idle-wake-trace'
import { loopFacts } from './queue-facts'

export const SECONDS = 0.15
export const REGION = 64 * 2 ** 20
const DEVICE = { preset: 'loop-dio-virtio' }
const HOST = { preset: 'linux-modern', overrides: { cpus: 2 } }
export const FRESH_PAGE_US = 5

/**
 * The fingerprint's sweep (one pass, short points) "measured" by simulating the loop preset with
 * `overrides`, as the fit reads it; the buffered point with the excess of the reported memory the
 * probe priced.
 */
export function measuredSweep(overrides: ParamValues = {}, hostOverrides: ParamValues = {}): FitPoint[] {
  const device = { ...DEVICE, overrides }
  const host = { ...HOST, overrides: { ...HOST.overrides, ...hostOverrides } }
  const points = simulate(resolveSpec(sweepSpec(SECONDS, REGION, device, host)), 0, 0, {
    why: false,
  }).processes.map((p) => fitPointOf(p, null))
  for (const p of points) if (p.name === 'buffered-write') p.freshExcessNs = 256 * FRESH_PAGE_US * 1000
  return points
}

/**
 * A fingerprint as the code fits it, of `points` (by default measuredSweep()) with mq-deadline's
 * scheduler point, on a host whose probes measured the cost of reported memory and the idle CPUs'
 * wake-up latencies.
 */
export function fittedFingerprint(points: FitPoint[] = measuredSweep()): PresetDocument {
  const sspec = resolveSpec(schedulerSweepSpec(SECONDS, REGION, DEVICE, HOST, ['mq-deadline']))
  const mq = { ...fitPointOf(simulate(sspec, 0, 0, { why: false }).processes[0], null), fioCpuUs: 3 }
  const capturedHost: HostCapture = {
    preset: 'linux-modern',
    kernel: '6.12.0-test',
    overrides: { cpus: 2, freshPageUs: FRESH_PAGE_US },
    sources: { cpus: '/proc/cpuinfo', freshPageUs: 'measured: the probe' },
  }
  idleWakeHost(capturedHost, { idleWakeUs: 41, idleExitUs: 8.5, remote: 4000, local: 6000 }, () => {})
  return fitSweep(
    {
      target: {
        kind: 'scratch-loop',
        name: 'loop9',
        path: '/dev/loop9',
        sizeBytes: 256 * 2 ** 20,
        rotational: true,
        model: 'loop',
        description: 'scratch loop device /dev/loop9 (a test)',
      },
      queue: loopFacts(),
      seconds: SECONDS,
      passes: 1,
      regionBytes: REGION,
      points,
      noise: Object.fromEntries([...points.map((p) => [p.name, 0.05]), ['qd32-randread@mq-deadline', 0.05]]),
      capturedHost,
      probed: true,
    },
    { kind: 'measured', points: [{ scheduler: 'mq-deadline', point: mq, pairedUs: 1.5, pairs: 1 }] },
    'fp-test',
  )
}
