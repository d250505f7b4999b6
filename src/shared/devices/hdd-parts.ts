/**
 * The parts of a command's service (Device.parts), in the order they pass: waiting in the drive's
 * queue behind the command being served (NCQ), the controller's command overhead (what is left of
 * it once it overlaps the command before), waiting for a destage chunk in progress, the move to
 * the first sector's track — a seek, with the extra settle before a write, or a head switch on the
 * same cylinder — revolutions lost to recovered read errors, the rotational wait for the first
 * sector, and the media transfer (with the track and cylinder switches inside it); or, served from
 * the drive's buffers, the bus transfer of a read-buffer hit (and its wait for the read-ahead to
 * reach the data), or of a write taken into the write cache (and its wait for room there).
 * These are the terms hdd.ts adds up (reference §9: service = command overhead + seek +
 * rotational latency + transfer + head/track switches), each marked where it is computed.
 */
export const HDD_PARTS = [
  'queued',
  'command overhead',
  'waiting for destage',
  'seek',
  'write settle',
  'head switch',
  'read retry',
  'rotation',
  'media transfer',
  'read buffer',
  'waiting for the read-ahead',
  'write cache',
  'waiting for write-cache room',
] as const
export const P_QUEUED = 0
export const P_OVERHEAD = 1
export const P_DESTAGE = 2
export const P_SEEK = 3
export const P_SETTLE = 4
export const P_SWITCH = 5
export const P_RETRY = 6
export const P_ROTATION = 7
export const P_MEDIA = 8
export const P_BUFFER = 9
export const P_READAHEAD = 10
export const P_WCACHE = 11
export const P_WCROOM = 12
