import type { ParamValues } from '../../util/params'

/**
 * Device presets: named value sets for a model, each value with where it comes from. A value
 * not taken from a datasheet or the reference (schedulers-and-devices.md §9–§10,
 * published-results.md) says "[inferred]" and why. Values not listed take the model's default
 * (hdd-params.ts / flash-params.ts), which are themselves documented there.
 */
export interface DevicePreset {
  readonly name: string
  /** Model name in the registry: `hdd` or `flash`. */
  readonly model: string
  readonly description: string
  readonly values: ParamValues
  /** Where each value comes from, by parameter name. */
  readonly sources: Record<string, string>
}
