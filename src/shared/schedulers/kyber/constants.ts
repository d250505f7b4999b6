import type { ParamSpec } from '../../util/params'

/**
 * Kyber's fixed numbers, as data: block/kyber-iosched.c as rewritten in Linux 4.18 ("kyber:
 * implement improved heuristics": four domains, latency histograms, proportional depth scaling) and
 * unchanged through 6.x — read at gregkh/linux blob 364030e3 (6.x). None is a sysfs attribute; the
 * model reads them from here, and `iosched-lab list` shows them.
 */
const SRC = 'block/kyber-iosched.c (Linux 4.18–6.x)'

const k = (name: string, value: number, unit: string, meaning: string, source: string): ParamSpec => ({
  name,
  kind: 'int',
  default: value,
  unit,
  meaning,
  source: `${SRC}: ${source}`,
})

export const kyberConstants: readonly ParamSpec[] = [
  k(
    'read_depth',
    256,
    'tokens',
    'READ domain: most reads in flight device-wide (its full depth)',
    'kyber_depth[KYBER_READ]',
  ),
  k('write_depth', 128, 'tokens', 'WRITE domain: most writes in flight', 'kyber_depth[KYBER_WRITE]'),
  k('discard_depth', 64, 'tokens', 'DISCARD domain: most discards in flight', 'kyber_depth[KYBER_DISCARD]'),
  k(
    'other_depth',
    16,
    'tokens',
    'OTHER domain (flushes and the rest): most in flight',
    'kyber_depth[KYBER_OTHER]',
  ),
  k(
    'read_batch',
    16,
    'requests',
    'reads dispatched in a row before the round robin moves on',
    'kyber_batch_size[]',
  ),
  k('write_batch', 8, 'requests', 'writes dispatched in a row', 'kyber_batch_size[]'),
  k('discard_batch', 1, 'requests', 'discards dispatched in a row', 'kyber_batch_size[]'),
  k('other_batch', 1, 'requests', 'other requests dispatched in a row', 'kyber_batch_size[]'),
  k(
    'discard_lat',
    5000,
    'ms',
    'latency target of the DISCARD domain (READ and WRITE have the sysfs targets)',
    'kyber_latency_targets[KYBER_DISCARD] = 5 * NSEC_PER_SEC',
  ),
  k(
    'async_percent',
    75,
    '%',
    'share of the scheduler tags async requests may take, keeping the rest for sync ones',
    'KYBER_ASYNC_PERCENT, applied by kyber_limit_depth as a shallow depth (kyber_depth_updated)',
  ),
  k(
    'timer_delay',
    100,
    'ms',
    'the depth timer runs at most this long after a completion',
    'kyber_completed_request: timer_reduce(&kqd->timer, jiffies + HZ / 10)',
  ),
  k(
    'latency_shift',
    2,
    '',
    'histogram buckets are target / 2^shift wide: 4 buckets up to the target ("good"), 4 beyond ("bad")',
    'KYBER_LATENCY_SHIFT, KYBER_GOOD_BUCKETS, KYBER_LATENCY_BUCKETS',
  ),
  k(
    'min_samples',
    500,
    'samples',
    'a percentile is read once a domain has this many samples…',
    'calculate_percentile',
  ),
  k(
    'sample_window',
    1000,
    'ms',
    '…or this long after its window opened, whichever comes first',
    'calculate_percentile: jiffies + HZ',
  ),
  k(
    'congestion_percentile',
    90,
    '%',
    'the device is congested when some domain’s p90 I/O latency (dispatch to completion) is over its target',
    'kyber_timer_fn',
  ),
  k(
    'depth_percentile',
    99,
    '%',
    'each domain’s depth is scaled by its p99 total latency (allocation to completion) over its target',
    'kyber_timer_fn: depth = depth * (p99 bucket + 1) >> KYBER_LATENCY_SHIFT',
  ),
]

/** A constant's value by name. */
export function kyberConstant(name: string): number {
  const p = kyberConstants.find((c) => c.name === name)
  if (p === undefined) throw new Error(`no kyber constant ${name}`)
  return p.default as number
}
