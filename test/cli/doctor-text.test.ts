import { describe, expect, it } from 'vitest'
import { doctorText } from '../../src/cli/commands/doctor'
import type { Diagnosis } from '../../src/main/services/real/doctor'

const checks: Diagnosis['checks'] = [
  { what: 'root', ok: true, detail: 'yes' },
  { what: 'fio', ok: true, detail: 'fio-3.33 (/usr/bin/fio)' },
  { what: 'losetup', ok: true, detail: '/usr/sbin/losetup' },
]
const state = '/root/.local/state/iosched-lab'
const running =
  'journal /root/.local/state/iosched-lab/journal/10950-855301.json: pid 10950 (iosched-lab run spec.json --real) is still running; left alone'

describe('iosched-lab doctor (text)', () => {
  it('says "nothing to repair" when it changed nothing — a running lab’s journal it left alone is no repair', () => {
    const t = doctorText({ checks, actions: [], notes: [running], problems: [] }, state, true)
    expect(t.out).toContain(`checked: ${running}`)
    expect(t.out.at(-1)).toBe('nothing to repair: no device is left switched')
    expect(t.out.join('\n')).not.toContain('repaired:')
    expect(t.err).toEqual([])
  })

  it('lists what it changed, and then does not say there was nothing to repair', () => {
    const t = doctorText(
      {
        checks,
        actions: ['sdb: scheduler bfq → mq-deadline (journal of pid 4242 (iosched-lab run x.json --real))'],
        notes: ['loop7 is gone: nothing to restore (journal of pid 4242 (iosched-lab run x.json --real))'],
        problems: [],
      },
      state,
      true,
    )
    expect(t.out).toContain(
      'repaired: sdb: scheduler bfq → mq-deadline (journal of pid 4242 (iosched-lab run x.json --real))',
    )
    expect(t.out).toContain(
      'checked: loop7 is gone: nothing to restore (journal of pid 4242 (iosched-lab run x.json --real))',
    )
    expect(t.out.join('\n')).not.toContain('nothing to repair')
  })

  it('a problem goes to stderr, and is not "nothing to repair"; without root nothing is said about repairs', () => {
    const bad = doctorText(
      { checks, actions: [], notes: [], problems: ['cannot read the journal: bad JSON'] },
      state,
      true,
    )
    expect(bad.err).toEqual(['iosched-lab: doctor: cannot read the journal: bad JSON'])
    expect(bad.out.join('\n')).not.toContain('nothing to repair')
    const user = doctorText({ checks, actions: [], notes: [], problems: [] }, state, false)
    expect(user.out.join('\n')).not.toMatch(/repair/)
    expect(user.out).toContain(`state: ${state}`)
  })
})
