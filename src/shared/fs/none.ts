import type { FileSystemType } from './types'

/**
 * No file-system model: files are extents on the device and only their data reaches the block
 * layer — no metadata, no journal, fsync writes the file's pages and waits for them.
 */
export const noFs: FileSystemType = {
  name: 'none',
  summary: 'no file-system model: only file data reaches the block layer',
  era: 'any (raw devices, or experiments that leave the file system out)',
  params: [],
  create: () => null,
}
