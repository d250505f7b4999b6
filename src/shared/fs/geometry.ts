import type { Geometry } from './layout'

/**
 * mke2fs defaults for 4 KiB blocks (e2fsprogs misc/mke2fs.conf and lib/ext2fs/initialize.c):
 * 32 768 blocks per group (one bitmap block), inode_ratio 16 384 → 8 192 inodes per group,
 * 128-byte inodes (ext2, ext3), 256 bytes and flex_bg of 16 groups for ext4 (mke2fs.conf [fs_types]
 * ext4 = { features = …flex_bg… inode_size = 256 }). Directory blocks: room for the namespace tests
 * next to group 0's metadata.
 */
export const EXT2_GEOMETRY: Geometry = {
  groupBlocks: 32768,
  inodesPerGroup: 8192,
  inodeBytes: 128,
  flexBg: 1,
  dirBlocks: 256,
}

export const EXT4_GEOMETRY: Geometry = { ...EXT2_GEOMETRY, inodeBytes: 256, flexBg: 16 }

/**
 * FreeBSD 2.2 newfs defaults: cylinder groups of 16 cylinders (-c 16) — about 8 MiB on the disks
 * of 1997 [inferred from the era's geometries] — one inode per 4 KiB of data (-i 4096) and 128-byte
 * on-disk inodes (struct dinode).
 */
export const FFS_GEOMETRY: Geometry = {
  groupBlocks: 2048,
  inodesPerGroup: 2048,
  inodeBytes: 128,
  flexBg: 1,
  dirBlocks: 256,
}
