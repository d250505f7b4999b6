// The seek curve several HDD presets share: the reference's fitted formula, and its source line.
import type { ParamValues } from '../../util/params'

export const FITTED =
  'reference §9 fitted curve (x = d/cylinders): x ≤ 0.108: 1.0 + 11.26·√x ms, else 2.85 + 17.15·x ms'
export const seekSources = (why: string): Record<string, string> => ({
  seekModel: why,
  seekUnit: why,
  seekBoundary: why,
  seekShortA: why,
  seekShortB: why,
  seekLongC: why,
  seekLongE: why,
})
export const fittedSeek: ParamValues = {
  seekModel: 'formula',
  seekUnit: 'fraction',
  seekBoundary: 0.108,
  seekShortA: 1.0,
  seekShortB: 11.26,
  seekLongC: 2.85,
  seekLongE: 17.15,
}
