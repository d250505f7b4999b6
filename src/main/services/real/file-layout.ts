import type { ResolvedFile } from '../../../shared/experiment/resolved'

/** Where a spec file lies on the real device: a byte range of the raw device. */
export interface FilePlace {
  name: string
  offset: number
  size: number
}

const SECTOR = 512
const ALIGN = 2048

/**
 * Place the spec's files on the real device the way the simulator's FileAllocator does: from
 * min(64 MiB, capacity/16), each aligned to 1 MiB, one after the other (or at `at`). On a raw
 * device there is no filesystem: a "file" is its byte range, and fio reads and writes that range.
 * A fragmented file (extent/gap) keeps its simulated start but is one contiguous range here.
 * In a test file (`inFile`: a file target) the ranges start at its first byte: where the file
 * system put them on the disk is its own business.
 */
export function layoutFiles(
  files: readonly ResolvedFile[],
  capacityBytes: number,
  inFile = false,
): { places: Map<string, FilePlace>; notes: string[]; problems: string[] } {
  const capacity = Math.floor(capacityBytes / SECTOR)
  let cursor = inFile ? 0 : Math.min(ALIGN * 64, Math.floor(capacity / 16))
  const places = new Map<string, FilePlace>()
  const notes: string[] = []
  const problems: string[] = []
  for (const f of files) {
    const nsect = Math.ceil(f.size / SECTOR)
    const start = f.atSector ?? Math.ceil(cursor / ALIGN) * ALIGN
    let end = start + nsect
    if (f.extentBytes) {
      const ext = Math.max(8, Math.ceil(f.extentBytes / SECTOR))
      const gap = Math.ceil((f.gapBytes ?? 0) / SECTOR)
      end = start + nsect + (Math.ceil(nsect / ext) - 1) * gap
      notes.push(
        `file "${f.name}" is fragmented in the spec (extents of ${f.extentBytes} bytes); on the ${inFile ? 'test file' : 'raw device'} it is one contiguous range`,
      )
    }
    if (start + nsect > capacity)
      problems.push(
        `file "${f.name}" (${f.size} bytes at byte ${start * SECTOR}) does not fit on the device (${capacityBytes} bytes)`,
      )
    if (f.atSector === undefined) cursor = end
    places.set(f.name, { name: f.name, offset: start * SECTOR, size: f.size })
  }
  return { places, notes, problems }
}

/** Bytes a device (or a test file: `inFile`) needs to hold every file where layoutFiles puts it. */
export function bytesNeeded(files: readonly ResolvedFile[], inFile = false): number {
  // the simulator starts files at 64 MiB on any device of at least 1 GiB; smaller devices start at 1/16
  let need = 0
  let cursor = inFile ? 0 : ALIGN * 64
  for (const f of files) {
    const nsect = Math.ceil(f.size / SECTOR)
    const start = f.atSector ?? Math.ceil(cursor / ALIGN) * ALIGN
    if (f.atSector === undefined) cursor = start + nsect
    need = Math.max(need, (start + nsect) * SECTOR)
  }
  return need
}
