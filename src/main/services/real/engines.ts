import type { RealEngine } from './engine-plan'
import { bonnieEngine } from './bonnie-engine'
import { ddEngine } from './dd-engine'
import { fioEngine } from './fio-engine'

/** Every real engine: one file each, one line here. */
export const realEngines: readonly RealEngine[] = [fioEngine, ddEngine, bonnieEngine]

export const engineByName = (name: string): RealEngine | undefined => realEngines.find((e) => e.name === name)

export const engineNames = (): string[] => realEngines.map((e) => e.name)

/** Programs a real run with this engine needs. */
export const toolsFor = (engine: string): string[] =>
  engine === 'bonnie++'
    ? ['bonnie++', 'mkfs.ext4', 'mount', 'losetup', 'lsblk']
    : [engine, 'losetup', 'lsblk']
