import { FITTED, LOOP_DIO_VIRTIO } from '../../src/shared/devices/presets/loop-dio-virtio'
import { VIRTUAL_PARAMS } from '../../src/shared/devices/virtual-params'
import type { ParamValues } from '../../src/shared/util/params'

/** The values of the loop preset that its fingerprint fitted: those whose source says so. */
const fitted = Object.entries(LOOP_DIO_VIRTIO.sources)
  .filter(([, source]) => source.startsWith(FITTED))
  .map(([k]) => k)
if (fitted.length === 0) throw new Error('loop-dio-virtio names no fitted value')

/**
 * Overrides that put the `loop-dio-virtio` preset back on the virtual model's own defaults for
 * what its fingerprint fitted: the lanes model (no contention, no stalls) with the model's
 * service tables — the structure of the loop device (backing queue, ring, segments, wbt) with the
 * mechanisms a test examines on known, round figures.
 */
export const LOOP_LANES: ParamValues = Object.fromEntries(
  fitted.map((k) => {
    const spec = VIRTUAL_PARAMS.find((p) => p.name === k)
    if (!spec) throw new Error(`virtual model has no parameter ${k}`)
    return [k, spec.default]
  }),
) as ParamValues
