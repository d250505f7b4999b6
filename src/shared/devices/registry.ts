import { resolveParams, type ParamIssue, type ParamSpec, type ParamValues } from '../util/params'
import type { Device, DeviceContext } from './device'
import { Flash } from './flash'
import { FLASH_PARAMS, flashConfig } from './flash-params'
import { fastestReadUs } from './flash-variability'
import { Hdd } from './hdd'
import { HDD_PARAMS, hddConfig } from './hdd-params'
import { DEVICE_PRESETS, type DevicePreset } from './presets'
import { NullBlk, nullblkParams } from './nullblk'
import { VirtualDevice } from './virtual'
import { VIRTUAL_PARAMS, virtualConfig } from './virtual-params'

/**
 * Device models as data: a name, its parameters (default, unit, meaning, range), and a factory.
 * A new model is one file plus one entry here; presets (presets.ts) are named value sets for a
 * model, each value with its source.
 */
export interface DeviceModel {
  readonly name: string
  readonly summary: string
  readonly params: readonly ParamSpec[]
  /** Checks beyond single values (table syntax, cross-parameter constraints). */
  check(values: ParamValues, path: string, issues: ParamIssue[]): void
  /**
   * The most requests of `bytes` it can complete per second: its host interface's rate (what
   * bounds the request rate in the work estimate, experiment/work-estimate.ts).
   */
  peakRequestsPerSecond(values: ParamValues, bytes: number): number
  create(values: ParamValues, ctx: DeviceContext, name?: string): Device
}

export const DEVICE_MODELS: readonly DeviceModel[] = [
  {
    name: 'hdd',
    summary:
      'Rotating disk: zoned geometry, seek curve, real rotational position, track skew, read-ahead segments, optional write-back cache and NCQ.',
    params: HDD_PARAMS,
    check(values, path, issues) {
      hddConfig(values, 'check', issues, path)
      if ((values.innerSectorsPerTrack as number) > (values.outerSectorsPerTrack as number))
        issues.push({ path: `${path}.innerSectorsPerTrack`, message: 'must not exceed outerSectorsPerTrack' })
    },
    peakRequestsPerSecond: (v, bytes) => ((v.interfaceMBps as number) * 1e6) / bytes,
    create: (values, ctx, name = 'hdd') => new Hdd(hddConfig(values, name), ctx.engine, ctx.sink, ctx.rng),
  },
  {
    name: 'flash',
    summary:
      'Flash device (CompactFlash, eMMC, SATA SSD, NVMe): pages striped over channels × dies, read-modify-write of partly written mapping units, garbage collection, optional SLC cache.',
    params: FLASH_PARAMS,
    check(values, path, issues) {
      const map = values.mapUnitKiB as number
      const page = values.pageKiB as number
      if (map > page && Math.abs(map / page - Math.round(map / page)) > 1e-9)
        issues.push({
          path: `${path}.mapUnitKiB`,
          message: `a mapping unit larger than a page must be a multiple of pageKiB (${page})`,
        })
      if ((values.gcThresholdPct as number) >= 100)
        issues.push({ path: `${path}.gcThresholdPct`, message: 'must be below 100' })
      const fastest = fastestReadUs(
        values.readUs as number,
        values.readSensing as string,
        values.senseUs as number,
      )
      if (fastest < 0)
        issues.push({
          path: `${path}.senseUs`,
          message: `too large for readUs ${values.readUs as number}: the fastest page type would read in ${fastest.toFixed(1)} µs`,
        })
    },
    peakRequestsPerSecond: (v, bytes) => ((v.hostMBps as number) * 1e6) / bytes,
    create: (values, ctx, name = 'flash') =>
      new Flash(flashConfig(values, name), ctx.engine, ctx.sink, ctx.rng),
  },
  {
    name: 'nullblk',
    summary:
      'Linux null_blk: a fixed completion time per command (plus an optional transfer rate), many at once.',
    params: nullblkParams,
    check() {},
    // a fixed completion time per command, queueDepth at once, and an optional transfer rate
    peakRequestsPerSecond: (v, bytes) =>
      Math.min(
        (v.completionUs as number) > 0
          ? ((v.queueDepth as number) * 1e6) / (v.completionUs as number)
          : Infinity,
        (v.bandwidthMBps as number) > 0 ? ((v.bandwidthMBps as number) * 1e6) / bytes : Infinity,
      ),
    create: (values, ctx, name = 'nullblk') => new NullBlk(values, ctx, name),
  },
  {
    name: 'virtual',
    summary:
      'A device seen only at its block interface (loop, virtio, device-mapper): measured service-time distributions, fitted parallelism and bandwidth per direction, reads waiting behind writes, and the CPU of its own path on the host.',
    params: VIRTUAL_PARAMS,
    check(values, path, issues) {
      virtualConfig(values, 'check', issues, path)
    },
    // each direction's lanes at their fastest service, each request's data beyond 4 KiB on the link
    peakRequestsPerSecond(v, bytes) {
      const c = virtualConfig(v, 'peak')
      const rate = (d: 0 | 1): number => {
        const ns = c.service[d].at(0) * 1000 + Math.max(0, bytes - 4096) * c.nsPerByte[d]
        return ns > 0 ? (c.parallel[d] * 1e9) / ns : Infinity
      }
      return Math.max(rate(0), rate(1))
    },
    create: (values, ctx, name = 'virtual') =>
      new VirtualDevice(virtualConfig(values, name), ctx.engine, ctx.sink, ctx.rng, ctx.hz, ctx.folioKiB),
  },
]

export function findDeviceModel(name: string): DeviceModel | undefined {
  return DEVICE_MODELS.find((m) => m.name === name)
}

/** Presets added at run time: a user's own devices (e.g. fitted by `iosched-lab fingerprint`). */
const userPresets: DevicePreset[] = []

/** The built-in presets, then the user's. */
export function devicePresets(): readonly DevicePreset[] {
  return [...DEVICE_PRESETS, ...userPresets]
}

/**
 * Add a user's preset (replacing one of the same name). Its values are completed from the
 * model's defaults; a name that a built-in preset uses, or an unknown model, is refused.
 */
export function registerDevicePreset(p: DevicePreset): void {
  if (DEVICE_PRESETS.some((b) => b.name === p.name))
    throw new Error(`preset "${p.name}" is a built-in preset's name`)
  const model = findDeviceModel(p.model)
  if (!model) throw new Error(`preset "${p.name}": unknown device model "${p.model}"`)
  const issues: ParamIssue[] = []
  const values = resolveParams(model.params, p.values, p.name, issues)
  if (issues.length) throw new Error(issues.map((i) => `${i.path}: ${i.message}`).join('; '))
  const i = userPresets.findIndex((u) => u.name === p.name)
  const full = { ...p, values }
  if (i >= 0) userPresets[i] = full
  else userPresets.push(full)
}

export function findDevicePreset(name: string): DevicePreset | undefined {
  return DEVICE_PRESETS.find((p) => p.name === name) ?? userPresets.find((p) => p.name === name)
}

export interface ResolvedDevice {
  readonly preset: string
  readonly model: string
  readonly values: ParamValues
}

/**
 * A preset plus overrides → the model and its complete, validated values. `path` is where the
 * device section sits in the caller's document (e.g. `device`): issues name `device.preset` or
 * `device.overrides.<param>`. Returns undefined when the preset is unknown.
 */
export function resolveDevice(
  preset: string,
  overrides: unknown,
  path: string,
  issues: ParamIssue[],
): ResolvedDevice | undefined {
  const p = findDevicePreset(preset)
  const at = (k: string): string => (path ? `${path}.${k}` : k)
  if (!p) {
    const known = devicePresets()
      .map((x) => x.name)
      .join(', ')
    issues.push({
      path: at('preset'),
      message: `unknown device preset ${JSON.stringify(preset)}; known presets: ${known}`,
    })
    return undefined
  }
  const model = findDeviceModel(p.model)
  if (!model) throw new Error(`device preset ${p.name} names unknown model ${p.model}`)
  const before = issues.length
  const values = resolveParams(model.params, overrides, at('overrides'), issues, p.values)
  if (issues.length === before) model.check(values, at('overrides'), issues)
  return { preset: p.name, model: model.name, values }
}

/** Build a device from resolved values. Throws on an unknown model. */
export function createDevice(model: string, values: ParamValues, ctx: DeviceContext, name?: string): Device {
  const m = findDeviceModel(model)
  if (!m)
    throw new Error(
      `unknown device model ${JSON.stringify(model)}; known: ${DEVICE_MODELS.map((x) => x.name).join(', ')}`,
    )
  return m.create(values, ctx, name ?? model)
}
