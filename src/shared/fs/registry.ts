import type { FileSystemType } from './types'
import { noFs } from './none'
import { ext2 } from './ext2'
import { ext3 } from './ext3'
import { ext4 } from './ext4'
import { ffs } from './ffs'

/** Every modelled file system, one line each. */
export const fileSystems: readonly FileSystemType[] = [noFs, ext2, ext3, ext4, ffs]

export function findFileSystem(name: string): FileSystemType | undefined {
  return fileSystems.find((f) => f.name === name)
}
