import type { DevicePreset } from './preset'

export const NULLBLK: DevicePreset = {
  name: 'nullblk',
  model: 'nullblk',
  description:
    'Linux null_blk: every command completes after a fixed 10 µs, 64 at a time — no mechanics, for seeing what a scheduler alone does.',
  values: { completionUs: 10, queueDepth: 64, maxTransferKiB: 512 },
  sources: {
    completionUs: 'null_blk completion_nsec (default 10 000 ns)',
    queueDepth: 'null_blk hw_queue_depth (default 64)',
    maxTransferKiB: 'Linux default max_sectors_kb',
  },
}
