import { SECTOR } from '../block/types'
import { PAGE } from '../host/files'

/** Sectors in a 4 KiB file-system block (the ext2/3/4 and FFS block size modelled). */
export const BLOCK_SECTORS = PAGE / SECTOR

/**
 * The on-disk geometry mke2fs gives a file system of 4 KiB blocks: block groups of 32 768 blocks
 * (128 MiB: one block bitmap block covers the group), 8 192 inodes per group (the default
 * `inode_ratio` of 16 KiB: 32 768 × 4 KiB / 16 KiB), each group's bitmaps and inode table at its
 * start — or, with `flex_bg` (ext4), those of `flexBg` groups packed together at the start of the
 * first group of the flex group.
 */
export interface Geometry {
  groupBlocks: number
  inodesPerGroup: number
  inodeBytes: number
  flexBg: number
  /** Blocks kept after group 0's metadata for directories (the root directory's blocks). */
  dirBlocks: number
}

/**
 * Where each kind of metadata block lies: in the metadata region of a flex group (superblock /
 * descriptor block, block bitmaps, inode bitmaps, inode tables), as an offset from that region's
 * start, in blocks.
 */
export class FsLayout {
  readonly groupSectors: number
  readonly inodeTableBlocks: number
  /** Blocks of one flex group's metadata region. */
  readonly regionBlocks: number
  readonly flexSectors: number

  constructor(
    readonly g: Geometry,
    readonly capacitySectors: number,
  ) {
    this.groupSectors = g.groupBlocks * BLOCK_SECTORS
    this.inodeTableBlocks = Math.ceil((g.inodesPerGroup * g.inodeBytes) / PAGE)
    this.regionBlocks = 1 + 2 * g.flexBg + g.flexBg * this.inodeTableBlocks
    this.flexSectors = this.groupSectors * g.flexBg
  }

  get flexGroups(): number {
    return Math.max(1, Math.ceil(this.capacitySectors / this.flexSectors))
  }

  /** First sector of flex group `fg`'s metadata region. */
  regionStart(fg: number): number {
    return fg * this.flexSectors
  }

  /** The block group holding device sector `s`. */
  groupOf(s: number): number {
    return Math.floor(s / this.groupSectors)
  }

  flexOf(group: number): number {
    return Math.floor(group / this.g.flexBg)
  }

  /** Offsets (in blocks) inside the group's flex region. */
  descriptorBlock(): number {
    return 0
  }

  blockBitmap(group: number): number {
    return 1 + (group % this.g.flexBg)
  }

  inodeBitmap(group: number): number {
    return 1 + this.g.flexBg + (group % this.g.flexBg)
  }

  inodeBlock(group: number, slot: number): number {
    return (
      1 +
      2 * this.g.flexBg +
      (group % this.g.flexBg) * this.inodeTableBlocks +
      Math.floor((slot * this.g.inodeBytes) / PAGE)
    )
  }
}
