// The points of a device's fingerprint sweep, by name (src/main/services/real/fingerprint-sweep.ts
// says what each runs): shared so that the app says how many it measures without reaching into
// the main process's code.

export const FINGERPRINT_POINTS = [
  'qd1-randread',
  'qd32-randread',
  'qd8-randread',
  'qd1-randwrite',
  'qd32-randwrite',
  'seq-read',
  'seq-write',
  'buffered-write',
  'buffered-randwrite',
  'qd1-fsync-write',
] as const

export type SweepName = (typeof FINGERPRINT_POINTS)[number]
