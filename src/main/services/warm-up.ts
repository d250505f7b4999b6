// What a simulation child simulates as soon as the lab starts, before anyone presses Run: the
// flagship comparison (published measurement A: the gallery's first entry, every scheduler) cut
// short — its reader starting after 5 simulated seconds instead of 10, the whole over after 6.
// The seconds of writing matter: by then the writer has run into the dirty limits and writeback,
// so the code a real run spends its time in is compiled. On two idle cores the first flagship Run
// then takes about 0.6–0.75 s (no warm-up: 1.6 s; a 3-s warm-up: 0.9 s; the full 12 s: 0.6 s for a
// quarter more CPU; warm children: 0.3–0.45 s). It costs about 0.8 s of CPU per child, at their
// lower priority, the same work every time, in steps (one per scheduler entry) that a job that
// comes meanwhile waits for at most.
import type { ResolvedSpec } from '../../shared/experiment/resolved'
import { validateSpec } from '../../shared/experiment/validate'

export const WARM_UP_SPEC = {
  name: 'warm-up',
  device: { preset: 'hdd-2003-ide' },
  host: { preset: 'linux-2003' },
  workload: {
    files: [
      { name: 'foo', size: '512M' },
      { name: '100m-file', size: '100M' },
    ],
    processes: [
      {
        name: 'writer',
        type: 'dd',
        params: { op: 'write', file: 'foo', bs: '1M', count: 512, loop: true },
      },
      { name: 'reader', type: 'cat', params: { file: '100m-file', size: '100M' }, startMs: 5000 },
    ],
    stop: { processes: ['reader'], maxSeconds: 6 },
  },
  schedulers: [
    'noop',
    'deadline',
    { name: 'cfq', label: 'cfq-v1', tunables: { version: 'v1' } },
    'anticipatory',
    'cfq',
    'bfq',
    'mq-deadline',
    'kyber',
  ],
  seed: 1,
}

/** The warm-up experiment, resolved (null should a change to the presets ever refuse it). */
export function warmUpSpec(): ResolvedSpec | null {
  const v = validateSpec(WARM_UP_SPEC)
  return v.ok ? v.spec : null
}
