// The list of LabApi's methods, as data. `satisfies Record<LabMethod, true>` makes the compiler
// refuse a list that misses a method or names one that does not exist; main, the preload and the
// browser host register exactly these names. No zod here, so the preload bundle stays small.
import type { LabMethod } from './contract'
import { REAL_METHODS } from './real-contract'
import { LIBRARY_METHODS } from './library-contract'
import { GALLERY_METHODS } from './gallery-contract'

const METHODS = {
  catalogue: true,
  examples: true,
  validateSpec: true,
  startRun: true,
  cancelRun: true,
  listSessions: true,
  saveSession: true,
  openSession: true,
  library: true,
  ...REAL_METHODS,
  ...LIBRARY_METHODS,
  ...GALLERY_METHODS,
} as const satisfies Record<LabMethod, true>

export const LAB_METHODS = Object.keys(METHODS) as LabMethod[]

/** The IPC channel of a method (Electron): `lab:<method>`; events travel on `lab:event`. */
export const channelOf = (m: LabMethod): string => `lab:${m}`
export const EVENT_CHANNEL = 'lab:event'

export function isLabMethod(name: string): name is LabMethod {
  return Object.prototype.hasOwnProperty.call(METHODS, name)
}
