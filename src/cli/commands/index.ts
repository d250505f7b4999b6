import type { CommandEntry } from '../command'

/**
 * Every command: one file each, one line here. Each is imported when it runs (dynamic import: the
 * build keeps it in a chunk of its own), so `list` does not load the run pool, the real-device
 * runner or the HTTP host.
 */
export const commands: readonly CommandEntry[] = [
  { name: 'list', load: async () => (await import('./list')).listCommand },
  { name: 'run', load: async () => (await import('./run')).runCli },
  { name: 'quick', load: async () => (await import('./quick')).quickCommand },
  { name: 'sweep', load: async () => (await import('./sweep')).sweepCommand },
  { name: 'merge', load: async () => (await import('./merge')).mergeCommand },
  { name: 'serve', load: async () => (await import('./serve')).serveCommand },
  { name: 'devices', load: async () => (await import('./devices')).devicesCommand },
  { name: 'doctor', load: async () => (await import('./doctor')).doctorCommand },
  { name: 'fingerprint', load: async () => (await import('./fingerprint')).fingerprintCommand },
  { name: 'validate', load: async () => (await import('./validate')).validateCommand },
  { name: 'gallery', load: async () => (await import('./gallery')).galleryCommand },
  { name: 'reproduce', load: async () => (await import('./reproduce')).reproduceCommand },
  { name: 'import', load: async () => (await import('./import')).importCommand },
  { name: 'report', load: async () => (await import('./report')).reportCommand },
  { name: 'sessions', load: async () => (await import('./sessions')).sessionsCommand },
  { name: 'real-helper', load: async () => (await import('./real-helper')).realHelperCommand },
]
