// A sweep point as the fingerprint's fit reads it, with nothing but its name and fio's CPU per
// I/O: what tests of the host's corrections from fio's CPU start from.
import type { FitPoint } from '../../src/main/services/real/fit-virtual'
import type { SweepName } from '../../src/shared/devices/fingerprint-points'
import { LatencyHistogram } from '../../src/shared/metrics/histogram'

export const cpuPoint = (name: SweepName, fioCpuUs: number | null): FitPoint => ({
  name,
  iops: 1000,
  MBps: 1000,
  latency: new LatencyHistogram().toJSON(),
  fioCpuUs,
  busyCpus: null,
})
