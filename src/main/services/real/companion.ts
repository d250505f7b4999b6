import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { HostCapture } from './host-capture'
import { captureHost } from './host-capture'

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The host the simulated companion of a real run simulates: the one the real rows ran on. When the
 * spec's device is a fingerprinted preset, the host captured with that fingerprint (the machine
 * the preset was fitted on, with the CPU costs the fit found); else this machine, captured now.
 */
export function companionHost(
  devicePreset: string,
  presetDir: string | null,
): { capture: HostCapture; from: string; fingerprint?: boolean } {
  if (presetDir && existsSync(presetDir))
    for (const f of readdirSync(presetDir).filter((x) => x.endsWith('.json'))) {
      try {
        const doc = JSON.parse(readFileSync(join(presetDir, f), 'utf8')) as Obj
        if (doc.name === devicePreset && isObj(doc.host) && isObj(doc.host.overrides))
          return {
            capture: doc.host as unknown as HostCapture,
            from: `the host captured with the fingerprint ${devicePreset}`,
            fingerprint: true,
          }
      } catch {
        // not a preset this can read: the catalogue says so elsewhere
      }
    }
  return { capture: captureHost(), from: 'this machine, captured now' }
}

/**
 * The spec document of a real run's simulated companion: the same document with the real rows'
 * time limit (the run's override of stop.maxSeconds) and host (`companionHost`), so that the
 * simulated and real columns compare. The spec's own host overrides are kept when its host preset
 * is the captured one's; otherwise they belong to another machine and are left out, and said.
 */
export function companionDocument(
  doc: unknown,
  o: { maxSeconds?: number; host: { capture: HostCapture; from: string; fingerprint?: boolean } },
): { doc: unknown; notes: string[] } {
  if (!isObj(doc)) return { doc, notes: [] }
  const notes: string[] = []
  const out: Obj = { ...doc }
  if (o.maxSeconds !== undefined && isObj(doc.workload)) {
    const stop = isObj(doc.workload.stop) ? doc.workload.stop : {}
    out.workload = { ...doc.workload, stop: { ...stop, maxSeconds: o.maxSeconds } }
  }
  const host = isObj(doc.host) ? doc.host : {}
  const preset = typeof host.preset === 'string' ? host.preset : 'linux-modern'
  const own = isObj(host.overrides) ? host.overrides : {}
  const same = preset === o.host.capture.preset
  out.host = {
    ...host,
    preset: o.host.capture.preset,
    overrides: { ...o.host.capture.overrides, ...(same ? own : {}) },
  }
  if (!o.host.fingerprint) {
    const device =
      isObj(doc.device) && typeof doc.device.preset === 'string' ? doc.device.preset : 'its default'
    notes.push(
      `the simulated rows model the spec's device preset ${device}, not the real device: for columns that compare, fingerprint the device (iosched-lab fingerprint, or Devices → Fingerprint in the app) and use its preset`,
    )
  }
  if (!same)
    notes.push(
      `the simulated rows run on the host the real rows ran on (${o.host.capture.preset} with ${o.host.from}), not on the spec's ${preset}, so that the columns compare`,
    )
  return { doc: out, notes }
}
