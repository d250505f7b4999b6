import type { DevicePreset } from './preset'
import { FITTED, fittedSeek, seekSources } from './hdd-seek'

/**
 * The disk of the operating-systems textbooks' disk-scheduling examples: 200 cylinders (0–199),
 * one command at a time, no drive cache — so the arm moves only to the requests it is given, in
 * the order it is given them, and the run's `seekCylinders` is the textbooks' "total head
 * movement". Geometry inside a cylinder does not change the head travel; it is chosen only so the
 * disk has a plausible size.
 */
export const HDD_TEXTBOOK: DevicePreset = {
  name: 'hdd-textbook',
  model: 'hdd',
  description:
    'The textbook disk-scheduling example disk (Silberschatz et al.): cylinders 0–199, one command at a time, no read-ahead or write cache; its head travel is the textbooks’ total head movement.',
  values: {
    rpm: 7200,
    heads: 8,
    cylinders: 200,
    zones: 1,
    outerSectorsPerTrack: 1000,
    innerSectorsPerTrack: 1000,
    ...fittedSeek,
    segmentCount: 0,
    writeCacheKiB: 0,
    queueDepth: 1,
    maxTransferKiB: 512,
  },
  sources: {
    rpm: '[inferred] any: rotation does not change head travel',
    heads: '[inferred] any: LBAs fill a cylinder head by head, so a cylinder is 8 000 consecutive sectors',
    cylinders:
      'Silberschatz, Galvin, Gagne, Operating System Concepts, “Disk Scheduling”: a disk with cylinders 0–199',
    zones: '[inferred] one zone: every cylinder holds the same number of sectors',
    outerSectorsPerTrack: '[inferred] 1000 sectors per track: cylinder c starts at sector 8000·c',
    innerSectorsPerTrack: '[inferred] the same as the outer tracks (one zone)',
    ...seekSources(`[inferred] ${FITTED}: seek time does not change head travel`),
    segmentCount: 'none: a read-ahead would move the arm on past the requests',
    writeCacheKiB: 'none: writes go to the media at once, in the order served',
    queueDepth: 'one command at a time: the order is the scheduler’s, as in the textbook',
    maxTransferKiB: '[inferred] Linux max_sectors_kb default 512; the example’s requests are 4 KiB',
  },
}
