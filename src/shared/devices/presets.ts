// The device presets, one file each under presets/; a new preset is a file and a line here.
import type { DevicePreset } from './presets/preset'
import { HDD_2003_IDE } from './presets/hdd-2003-ide'
import { HDD_1997_SCSI } from './presets/hdd-1997-scsi'
import { HDD_7200_SATA } from './presets/hdd-7200-sata'
import { CF_2006 } from './presets/cf-2006-100x'
import { EMMC_45 } from './presets/emmc-4.5'
import { SSD_SATA_MLC } from './presets/ssd-sata-mlc'
import { NVME_TLC } from './presets/nvme-tlc'
import { NULLBLK } from './presets/nullblk'
import { HDD_TEXTBOOK } from './presets/hdd-textbook'
import { LOOP_DIO_VIRTIO } from './presets/loop-dio-virtio'

export type { DevicePreset } from './presets/preset'

export const DEVICE_PRESETS: readonly DevicePreset[] = [
  HDD_2003_IDE,
  HDD_1997_SCSI,
  HDD_7200_SATA,
  CF_2006,
  EMMC_45,
  SSD_SATA_MLC,
  NVME_TLC,
  NULLBLK,
  HDD_TEXTBOOK,
  LOOP_DIO_VIRTIO,
]
